import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setApiUrl } from './api';
import { App } from './App';
import { loadApiUrl } from './config';
import { setSessionScope } from './session';

// The API's URL first (./config.json, written by createAdmin), then the app.
void loadApiUrl().then((url) => {
  setApiUrl(url);
  setSessionScope(url);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
