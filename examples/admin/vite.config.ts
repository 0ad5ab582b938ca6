import { defineConfig } from 'vite';

// The admin calls the API on its own origin: the dev server (and `vite preview`) forward /api and /uploads to the
// example API, so the browser needs no CORS. API_URL moves the API (default: `npm start` of the repo).
const target = process.env.API_URL ?? 'http://localhost:1337';
const proxy = { '/api': target, '/uploads': target };

export default defineConfig({
  server: { port: 5173, strictPort: true, proxy },
  preview: { port: 4173, strictPort: true, proxy },
  build: {
    chunkSizeWarningLimit: 2048,
    rolldownOptions: {
      // MUI's modules start with "use client", which means nothing in a single-page app.
      onLog(level, log, handler) {
        if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log);
      },
    },
  },
});
