// `npm start` here (or `npm run admin` at the repo root): the example API and the admin together. Starts the
// repo's example API (`npm start` of the repo: http://localhost:1337/api, data in the repo's .data/) and the Vite
// dev server of the admin (http://localhost:5173), which forwards /api and /uploads to the API. Ctrl-C stops both.
// PORT moves the API (the dev server follows); ADMIN_PORT moves the admin.
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { startExampleApi } from './example-api.mjs';

const adminRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT ?? 1337);
const adminPort = Number(process.env.ADMIN_PORT ?? 5173);
// A port in use would leave the admin talking to whatever program holds it: stop here, naming the port.
await portFree(port, 'the example API', 'PORT');
await portFree(adminPort, 'the admin', 'ADMIN_PORT');
const api = startExampleApi({ port });

let stopping = false;
const stop = (code) => {
  if (stopping) return;
  stopping = true;
  api.stop();
  process.exit(code);
};
api.child.on('exit', (code) => {
  if (!stopping) {
    console.error(`The example API stopped (exit code ${code}): its own message above says why (a missing package: npm install at the repo root).`);
    stop(code ?? 1);
  }
});
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

// The API first: the admin's first page asks it for data.
await api.ready();

process.env.API_URL = api.url;
try {
  const server = await createServer({ root: adminRoot, server: { port: adminPort } });
  await server.listen();
  console.log(`\ncontent-router admin: ${server.resolvedUrls.local[0]}  (the API: ${api.url}/api)\n`);
} catch (error) {
  console.error(`content-router admin: ${error.message}`);
  stop(1); // the API too: it runs in a process group of its own
}

/** Resolves when `port` can be listened on; otherwise says which program's port it is, and exits 1. */
function portFree(port, what, variable) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (error) => {
      const why = error.code === 'EADDRINUSE' ? `another program is listening on it. Stop it, or choose another port: ${variable}=<port> npm run admin` : error.message;
      console.error(`content-router admin: cannot start ${what} on port ${port}: ${why}`);
      process.exit(1);
    });
    probe.listen(port, () => probe.close(resolve));
  });
}
