/**
 * Starts bench/write-server.ts (a checkout's example router on a seeded store) in a child process and stops it:
 * the servers bench:reads and bench:writes compare side by side. A server still running when this process exits
 * (an error, Ctrl-C) is killed.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface WriteServer {
  name: string;
  child: ChildProcess;
  port: number;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
process.on('SIGINT', () => process.exit(130));

/** Starts write-server.ts with `checkout size kind dir` and resolves once it printed `READY <port>`. */
export async function startWriteServer(name: string, checkout: string, size: number, kind: string, dir: string): Promise<WriteServer> {
  const register = require.resolve('ts-node/register/transpile-only');
  const child = spawn(process.execPath, ['--max-old-space-size=8192', '-r', register, path.join(__dirname, 'write-server.ts'), checkout, String(size), kind, dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /READY (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`${name}: the server exited (${code}) before it was ready`)));
  });
  return { name, child, port };
}

/** Kills the server and waits until it has exited. */
export async function stopWriteServer(server: WriteServer): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
}
