import { MenuItem, TextField } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { AppBar, Layout as RaLayout, TitlePortal, usePermissions, useRefresh } from 'react-admin';
import { getContentLocale, setContentLocale } from '../locale';
import type { ModelIndex } from '../model';

/** The content locale of localized types, in the app bar (only when the model has locales). */
const LocaleSwitch = () => {
  const { permissions } = usePermissions<ModelIndex>();
  const refresh = useRefresh();
  const [locale, setLocale] = useState(getContentLocale());
  const locales = permissions?.model.locales ?? [];
  if (!locales.length) return null;
  const value = locale ?? permissions?.defaultLocale ?? '';
  return (
    <TextField
      select
      size="small"
      label="Content locale"
      value={value}
      onChange={(e) => {
        setContentLocale(e.target.value);
        setLocale(e.target.value);
        refresh();
      }}
      sx={{ width: 180, flex: 'none', mr: 1, '& .MuiInputBase-root': { color: 'inherit', bgcolor: 'rgba(255,255,255,0.15)' }, '& .MuiInputLabel-root': { color: 'inherit' } }}
    >
      {locales.map((l) => <MenuItem key={l.code} value={l.code}>{l.name}</MenuItem>)}
    </TextField>
  );
};

const Bar = () => (
  <AppBar alwaysOn>
    <TitlePortal />
    <LocaleSwitch />
  </AppBar>
);

export const Layout = ({ children }: { children: ReactNode }) => <RaLayout appBar={Bar}>{children}</RaLayout>;
