/** Where the Content API is: `./config.json` next to index.html (written by createAdmin), else `/api`. */
export async function loadApiUrl(): Promise<string> {
  try {
    const res = await fetch('./config.json', { cache: 'no-store' });
    if (res.ok) {
      const json = (await res.json()) as { apiUrl?: unknown };
      if (typeof json.apiUrl === 'string' && json.apiUrl) return json.apiUrl.replace(/\/+$/, '');
    }
  } catch {
    // no config.json: the default below
  }
  return '/api';
}
