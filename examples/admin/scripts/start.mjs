// `npm start` here (or `npm run admin` at the repo root): the example API and the admin together. Starts the
// repo's example API (`npm start` of the repo: http://localhost:1337/api, data in the repo's .data/) and the Vite
// dev server of the admin (http://localhost:5173), which forwards /api and /uploads to the API. Ctrl-C stops both.
// PORT moves the API (the dev server follows); ADMIN_PORT moves the admin.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { startExampleApi } from './example-api.mjs';

const adminRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const api = startExampleApi({ port: Number(process.env.PORT ?? 1337) });

let stopping = false;
const stop = (code) => {
  if (stopping) return;
  stopping = true;
  api.stop();
  process.exit(code);
};
api.child.on('exit', (code) => {
  if (!stopping) {
    console.error(`The example API stopped (exit code ${code}). Did you run npm install at the repo root?`);
    stop(code ?? 1);
  }
});
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

// The API first: the admin's first page asks it for data.
await api.ready();

process.env.API_URL = api.url;
const server = await createServer({ root: adminRoot, server: { port: Number(process.env.ADMIN_PORT ?? 5173) } });
await server.listen();
console.log(`\ncontent-router admin: ${server.resolvedUrls.local[0]}  (the API: ${api.url}/api)\n`);
