// The repo's example API (`npm start` of the repo) as a child process, for `npm start` here and the browser test.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const windows = process.platform === 'win32';

/**
 * Starts `npm start` of the repo on `port` with `env` added. npm starts the server as a child of its own, so it
 * runs in a process group of its own that `stop()` ends whole (on Windows, where npm is npm.cmd and runs through a
 * shell, taskkill stops the tree). With `log`, its output is collected there instead of shown.
 *
 * @example
 * const api = startExampleApi({ port: 1337 }); await api.ready(); ... api.stop();
 */
export function startExampleApi({ port, env = {}, log }) {
  const url = `http://localhost:${port}`;
  const child = spawn(windows ? 'npm.cmd' : 'npm', ['start'], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    detached: !windows,
    shell: windows,
  });
  if (log) {
    child.stdout.on('data', (chunk) => log.push(String(chunk)));
    child.stderr.on('data', (chunk) => log.push(String(chunk)));
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    url,
    child,
    /** Resolves when `GET /api/articles` answers 200; rejects when the API exits first, or after `ms`. */
    async ready(ms = Infinity) {
      const end = Date.now() + ms;
      for (;;) {
        if (await fetch(`${url}/api/articles`).then((res) => res.ok, () => false)) return;
        const output = log ? `:\n${log.join('')}` : '';
        if (child.exitCode !== null) throw new Error(`the example API exited (${child.exitCode})${output}`);
        if (Date.now() > end) throw new Error(`${url}/api/articles did not answer 200 within ${ms} ms${output}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    /** Stops npm and the server together; resolves when npm has exited. */
    stop() {
      if (child.exitCode === null) {
        if (windows) spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore' });
        else process.kill(-child.pid, 'SIGTERM');
      }
      return exited;
    },
  };
}
