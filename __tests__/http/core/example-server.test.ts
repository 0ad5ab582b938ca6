import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createBlogApp } from '../../../examples/blog/app';
import { mongoOptionsFromEnv } from '../../../examples/blog/mongo-from-env';
import { expectStrapiError } from '../../helpers/http';

const ROOT = path.join(__dirname, '../../..');

/** `npm start` (examples/blog/server.ts) in a child process, its output kept, with a way to wait for a line. */
class ExampleServer {
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private readonly waiters: (() => void)[] = [];

  constructor(env: Record<string, string>, preload: string[] = []) {
    const args = [...preload.flatMap((p) => ['-r', p]), '-r', 'ts-node/register/transpile-only', 'examples/blog/server.ts'];
    this.child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, NODE_ENV: 'development', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const notify = (): void => this.waiters.splice(0).forEach((w) => w());
    this.child.stdout!.on('data', (chunk: Buffer) => ((this.stdout += chunk.toString()), notify()));
    this.child.stderr!.on('data', (chunk: Buffer) => ((this.stderr += chunk.toString()), notify()));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => (notify(), resolve(code))));
  }

  /** Resolves once the output matches `pattern` (the test's timeout bounds the wait). */
  async waitFor(pattern: RegExp): Promise<void> {
    while (!pattern.test(this.stdout + this.stderr)) {
      if (this.child.exitCode !== null) throw new Error(`the example exited (${this.child.exitCode}) before ${String(pattern)}:\n${this.stdout}\n${this.stderr}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  stop(): Promise<number | null> {
    this.child.kill('SIGTERM');
    return this.exited;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

describe('the example app', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'example-server-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('answers Strapi\'s health check at its root, and under /api', async () => {
    const { app, close } = await createBlogApp({ seed: false, uploadsDir: dir });
    try {
      for (const path of ['/_health', '/api/_health']) {
        const res = await request(app).get(path);
        expect({ status: res.status, strapi: res.headers.strapi }).toEqual({ status: 204, strapi: 'You are so French!' });
      }
    } finally {
      await close();
    }
  });

  it.each([
    [{}, undefined],
    [{ MONGODB_URI: 'mongodb://localhost/blog' }, { uri: 'mongodb://localhost/blog' }],
    [{ MONGODB_URI: 'mongodb://localhost/blog', MONGODB_TRANSACTIONS: 'false' }, { uri: 'mongodb://localhost/blog', transactions: false }],
    [{ MONGODB_URI: 'mongodb://localhost/blog', MONGODB_TRANSACTIONS: '0' }, { uri: 'mongodb://localhost/blog', transactions: false }],
    [{ MONGODB_URI: 'mongodb://localhost/blog', MONGODB_TRANSACTIONS: 'TRUE' }, { uri: 'mongodb://localhost/blog' }],
  ])('the MongoDB options from the environment (MONGODB_TRANSACTIONS=false: a standalone server): %j', (env, options) => {
    expect(mongoOptionsFromEnv(env)).toEqual(options);
  });

  it('refuses a MONGODB_TRANSACTIONS it does not understand', () => {
    expect(() => mongoOptionsFromEnv({ MONGODB_URI: 'mongodb://localhost/blog', MONGODB_TRANSACTIONS: 'no' })).toThrow('MONGODB_TRANSACTIONS must be true or false');
  });

  it('with no MongoDB server listening: says so at once, listens, answers 503 with Retry-After, stops on SIGTERM', async () => {
    const port = await freePort();
    const server = new ExampleServer({ MONGODB_URI: 'mongodb://127.0.0.1:1/blog', PORT: String(port), UPLOADS_DIR: path.join(dir, 'uploads') });
    try {
      await server.waitFor(/content-router example: listening on http:\/\/localhost:\d+\/api\/articles/);
      await server.waitFor(/content-router example: still listening/);
      const lines = server.stderr.split('\n');
      const unreachable = lines.findIndex((l) => l.startsWith('content-router: MongoDB 127.0.0.1:1 cannot be reached (connect ECONNREFUSED 127.0.0.1:1)'));
      const failed = lines.findIndex((l) => l.startsWith('content-router: the storage engine did not start; requests answer 503 (Retry-After: 5)'));
      expect({ unreachable: unreachable >= 0, failedAfter: failed > unreachable }).toEqual({ unreachable: true, failedAfter: true });
      const base = `http://127.0.0.1:${port}`;
      for (const url of ['/api/articles', '/_health', '/api/_health']) {
        const res = await request(base).get(url);
        expectStrapiError(res, 503, 'ServiceUnavailableError', 'Service Unavailable: the storage engine did not start');
        expect(res.headers['retry-after']).toBe('5');
      }
      expect(server.stderr).not.toMatch(/exited|Unhandled/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);

  it('without mongoose installed: exits at once with the install command, never listening', async () => {
    const preload = path.join(dir, 'no-mongoose.js');
    await writeFile(preload, [
      "const Module = require('node:module');",
      'const resolve = Module._resolveFilename;',
      'Module._resolveFilename = function (request, ...rest) {',
      "  if (request === 'mongoose') throw Object.assign(new Error(\"Cannot find module 'mongoose'\"), { code: 'MODULE_NOT_FOUND' });",
      '  return resolve.call(this, request, ...rest);',
      '};',
    ].join('\n'));
    const server = new ExampleServer({ MONGODB_URI: 'mongodb://127.0.0.1:1/blog', PORT: String(await freePort()) }, [preload]);
    expect(await server.exited).toBe(1);
    expect(server.stderr).toContain('content-router example: CR_MISSING_DEPENDENCY: mongoEngine() needs mongoose');
    expect(server.stderr).toContain('npm install mongoose');
    expect(server.stdout).not.toContain('listening');
  }, 120_000);
  it('with its port in use: exits at once with code 1 and the port in the message, never "listening", the store untouched', async () => {
    const blocker = net.createServer();
    const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as net.AddressInfo).port)));
    const data = await mkdtemp(path.join(dir, 'port-in-use-'));
    try {
      const server = new ExampleServer({ PORT: String(port), DATA_FILE: path.join(data, 'content.db'), UPLOADS_DIR: path.join(data, 'uploads') });
      expect(await server.exited).toBe(1);
      expect(server.stderr).toContain(`content-router example: cannot listen on port ${port}: another program is listening on it`);
      expect(server.stdout).not.toMatch(/listening|ready/);
      expect(await readdir(data)).toEqual([]);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, 120_000);

  it('refuses a PORT that is not a port', async () => {
    const server = new ExampleServer({ PORT: '13x7', DATA_FILE: path.join(dir, 'never.db') });
    expect(await server.exited).toBe(1);
    expect(server.stderr).toContain('PORT must be a whole number from 0 to 65535, not "13x7"');
  }, 120_000);
});
