import { Box, Button, Card, CardContent, Divider, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useLogin, useNotify } from 'react-admin';

/**
 * Log in as a user of the users-and-permissions plugin (username or e-mail and password), or with an API token
 * pasted once (kept for this browser tab only).
 */
export const LoginPage = () => {
  const login = useLogin();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [token, setToken] = useState('');
  const submit = (credentials: Record<string, string>) => async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await login(credentials);
    } catch (error) {
      notify((error as Error).message || 'Log-in refused', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'grey.100' }}>
      <Card sx={{ width: 380 }}>
        <CardContent>
          <Typography variant="h5" component="h1" gutterBottom>content-router admin</Typography>
          <Box component="form" onSubmit={submit({ username: identifier, password })} sx={{ display: 'grid', gap: 2 }} aria-label="Log in with a user">
            <TextField label="Username or e-mail" autoComplete="username" value={identifier} onChange={(e) => setIdentifier(e.target.value)} required autoFocus />
            <TextField label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
            <Button type="submit" variant="contained" disabled={busy}>Log in</Button>
          </Box>
          <Divider sx={{ my: 2 }}>or</Divider>
          <Box component="form" onSubmit={submit({ token })} sx={{ display: 'grid', gap: 2 }} aria-label="Log in with an API token">
            <TextField label="API token" type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} required helperText="Kept for this browser tab only" />
            <Button type="submit" variant="outlined" disabled={busy}>Use the token</Button>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
};
