import { useEffect, useState, type ReactNode } from 'react';
import { MenuItem, Select } from '@mui/material';
import { AppBar, Layout as RaLayout, RefreshIconButton, ToggleThemeButton, useRefresh } from 'react-admin';
import { getContentLocale, getLocales, setContentLocale } from './dataProvider';

/** The content locale of localized types (articles, global), from the API's own list of locales. */
const ContentLocaleSelect = () => {
  const [locales, setLocales] = useState<{ code: string; name: string; isDefault: boolean }[]>([]);
  const [locale, setLocale] = useState(getContentLocale() ?? '');
  const refresh = useRefresh();
  useEffect(() => {
    getLocales().then((all) => {
      setLocales(all);
      if (!getContentLocale()) setLocale(all.find((l) => l.isDefault)?.code ?? '');
    }, () => setLocales([]));
  }, []);
  if (locales.length < 2) return null;
  return (
    <Select
      size="small"
      variant="standard"
      disableUnderline
      value={locale}
      inputProps={{ 'aria-label': 'Content locale' }}
      onChange={(event) => {
        setContentLocale(event.target.value);
        setLocale(event.target.value);
        refresh();
      }}
      sx={{ color: 'inherit', mr: 1, '& .MuiSvgIcon-root': { color: 'inherit' } }}
    >
      {locales.map((l) => (
        <MenuItem key={l.code} value={l.code}>
          {l.name}
        </MenuItem>
      ))}
    </Select>
  );
};

const Bar = () => (
  <AppBar
    toolbar={
      <>
        <ContentLocaleSelect />
        <ToggleThemeButton />
        <RefreshIconButton />
      </>
    }
  />
);

export const Layout = ({ children }: { children: ReactNode }) => <RaLayout appBar={Bar}>{children}</RaLayout>;
