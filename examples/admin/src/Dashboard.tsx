import { useEffect, useState } from 'react';
import { Card, CardContent, CardHeader, Typography } from '@mui/material';
import { getSingleType, LOCALE_CHANGE } from './dataProvider';

interface Global {
  siteName?: string;
  siteDescription?: string;
  defaultSeo?: { metaTitle?: string; metaDescription?: string };
}

/**
 * The `global` single type in the content locale, read-only: ra-strapi addresses every request to `/api/<resource>/<documentId>`, and a
 * single type lives at `/api/global` (GET, PUT, DELETE), so react-admin cannot list or edit it through the provider.
 */
export const Dashboard = () => {
  const [global, setGlobal] = useState<Global | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const load = () => getSingleType<Global>('global').then(setGlobal, (e: Error) => setError(e.message));
    load();
    window.addEventListener(LOCALE_CHANGE, load);
    return () => window.removeEventListener(LOCALE_CHANGE, load);
  }, []);
  return (
    <Card sx={{ mt: 2 }}>
      <CardHeader title={global?.siteName ?? 'content-router admin'} subheader="The global single type (GET /api/global)" />
      <CardContent>
        {error ? <Typography color="error">{error}</Typography> : null}
        {global === null ? <Typography color="text.secondary">No version of the global single type in this locale.</Typography> : null}
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
