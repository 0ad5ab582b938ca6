// `npm start` here (or `npm run admin` at the repo root): the example API and the admin together. Starts the
// repo's example API (`npm start` of the repo: http://localhost:1337/api, data in the repo's .data/) and the Vite
// dev server of the admin (http://localhost:5173), which forwards /api and /uploads to the API. Ctrl-C stops both.
// PORT moves the API (the dev server follows); ADMIN_PORT moves the admin.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const adminRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(adminRoot, '../..');
const apiPort = Number(process.env.PORT ?? 1337);
const apiUrl = `http://localhost:${apiPort}`;

// npm starts the server as a child of its own: stop the whole group (on Windows, where npm is npm.cmd and runs
// through a shell, taskkill stops the tree).
const windows = process.platform === 'win32';
const api = spawn(windows ? 'npm.cmd' : 'npm', ['start'], {
  cwd: repoRoot,
  env: { ...process.env, PORT: String(apiPort) },
  stdio: 'inherit',
  detached: !windows,
  shell: windows,
});
let stopping = false;
const stop = (code) => {
  if (stopping) return;
  stopping = true;
  if (api.exitCode === null) {
    if (windows) spawn('taskkill', ['/pid', String(api.pid), '/T', '/F'], { stdio: 'ignore' });
    else process.kill(-api.pid, 'SIGTERM');
  }
  process.exit(code);
};
api.on('exit', (code) => {
  if (!stopping) {
    console.error(`The example API stopped (exit code ${code}). Did you run npm install at the repo root?`);
    stop(code ?? 1);
  }
});
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

// The API first: the admin's first page asks it for data.
for (let ready = false; !ready; ) {
  ready = await fetch(`${apiUrl}/api/articles`).then((res) => res.ok, () => false);
  if (!ready) await new Promise((resolve) => setTimeout(resolve, 300));
}

process.env.API_URL = apiUrl;
const server = await createServer({ root: adminRoot, server: { port: Number(process.env.ADMIN_PORT ?? 5173) } });
await server.listen();
console.log(`\ncontent-router admin: ${server.resolvedUrls.local[0]}  (the API: ${apiUrl}/api)\n`);
