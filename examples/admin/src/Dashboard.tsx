import { useEffect, useState } from 'react';
import { Card, CardContent, CardHeader, Typography } from '@mui/material';
import { getSingleType } from './dataProvider';

interface Global {
  siteName?: string;
  siteDescription?: string;
  defaultSeo?: { metaTitle?: string; metaDescription?: string };
}

/**
 * The `global` single type, read-only: ra-strapi addresses every request to `/api/<resource>/<documentId>`, and a
 * single type lives at `/api/global` (GET, PUT, DELETE), so react-admin cannot list or edit it through the provider.
 */
export const Dashboard = () => {
  const [global, setGlobal] = useState<Global | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    getSingleType<Global>('global').then(setGlobal, (e: Error) => setError(e.message));
  }, []);
  return (
    <Card sx={{ mt: 2 }}>
      <CardHeader title={global?.siteName ?? 'content-router admin'} subheader="The global single type (GET /api/global)" />
      <CardContent>
        {error ? <Typography color="error">{error}</Typography> : null}
        <Typography>{global?.siteDescription}</Typography>
        {global?.defaultSeo ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            Default SEO: {global.defaultSeo.metaTitle}
          </Typography>
        ) : null}
      </CardContent>
    </Card>
  );
};
