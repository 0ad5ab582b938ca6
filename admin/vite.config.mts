import path from 'node:path';
import { defineConfig } from 'vite';

// The built-in admin: built into <repo>/dist/admin (shipped in the npm package), served by createAdmin().
// `base: './'`: every asset URL is relative to index.html, so the admin works at any mount path.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  build: {
    outDir: path.resolve(import.meta.dirname, '../dist/admin'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      // MUI's modules start with "use client", which means nothing in a single-page app.
      onLog(level, log, handler) {
        if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log);
      },
    },
  },
});
