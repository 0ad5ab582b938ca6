import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { loadBlogModel } from '../../../examples/blog/model';
import { runServe } from '../../../lib/cli/serve';
import { CUSTOM_CONTROLLER, writeBlogStrapiProject } from '../../fixtures/blog-strapi-project';
import { FIXTURE } from '../../transfer/transfer-helpers';

const ROOT = path.join(__dirname, '../../..');
jest.setTimeout(300_000); // two ts-node children in turn on a loaded machine

/** `content-router serve ...` in a child process (lib/cli.ts through ts-node), its output kept. */
class Serve {
  output = '';
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private readonly waiters: (() => void)[] = [];

  constructor(args: string[], env: Record<string, string>) {
    const { MONGODB_URI: _mongo, ...parent } = process.env; // the embedded engine: a store of its own
    this.child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'lib/cli.ts', 'serve', ...args], { cwd: ROOT, env: { ...parent, NODE_ENV: 'development', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const notify = (): void => this.waiters.splice(0).forEach((w) => w());
    this.child.stdout!.on('data', (chunk: Buffer) => ((this.output += chunk.toString()), notify()));
    this.child.stderr!.on('data', (chunk: Buffer) => ((this.output += chunk.toString()), notify()));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => (notify(), resolve(code))));
  }

  async waitFor(pattern: RegExp): Promise<RegExpExecArray> {
    for (;;) {
      const match = pattern.exec(this.output);
      if (match) return match;
      if (this.child.exitCode !== null) throw new Error(`serve exited (${this.child.exitCode}) before ${String(pattern)}:\n${this.output}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  stop(): Promise<number | null> {
    this.child.kill('SIGTERM');
    return this.exited;
  }
}

const model = loadBlogModel();
let dir: string;
let dataDir: string;
beforeAll(() => {
  dir = writeBlogStrapiProject();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cr-serve-data-'));
  const options = { auth: { public: { actions: model.permissions.public.actions } } };
  fs.writeFileSync(path.join(dataDir, 'options.json'), JSON.stringify(options));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('content-router serve <project-dir>', () => {
  it('imports a strapi export into the empty store, serves GET /api/articles, lists what it does not take over, stops on SIGTERM; a restart serves the stored data', async () => {
    const env = { PORT: '0', DATA_FILE: path.join(dataDir, 'content.db') };
    const first = new Serve([dir, '--import', FIXTURE, '--options', path.join(dataDir, 'options.json')], env);
    try {
      const [, port] = await first.waitFor(/ready on http:\/\/localhost:(\d+)\/api/);
      const res = await request(`http://127.0.0.1:${port}`).get('/api/articles?locale=de');
      expect(res.status).toBe(200);
      expect(res.body.data.map((a: { title: string }) => a.title)).toContain('German?'); // the export's locales, those documents are in included
      expect(first.output).toContain(`${CUSTOM_CONTROLLER}: a controller written as code: not run`);
      expect(first.output).toContain('package.json: the plugin graphql');
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const second = new Serve([dir, '--options', path.join(dataDir, 'options.json')], env);
    try {
      const [, again] = await second.waitFor(/ready on http:\/\/localhost:(\d+)\/api/);
      const [articles, german] = await Promise.all([request(`http://127.0.0.1:${again}`).get('/api/articles'), request(`http://127.0.0.1:${again}`).get('/api/articles?locale=de')]);
      expect(articles.body.meta.pagination.total).toBeGreaterThan(0);
      expect(german.body.data.map((a: { title: string }) => a.title)).toContain('German?'); // the locales kept by the import
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('a port in use: exits 1 at once, naming the port', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const serve = new Serve([dir], { PORT: String(port), DATA_FILE: path.join(dataDir, 'other.db') });
      expect(await serve.exited).toBe(1);
      expect(serve.output).toContain(`the port ${port} is already in use`);
      expect(fs.existsSync(path.join(dataDir, 'other.db'))).toBe(false); // failed before opening the store
    } finally {
      blocker.close();
    }
  });

  it.each([
    [[], 2, /usage: content-router serve/],
    [['a', 'b'], 2, /give one <project-dir>/],
    [['--nope'], 2, /Unknown option '--nope'/],
    [[path.join(os.tmpdir(), 'no-such-project')], 1, /CR_INVALID_PROJECT: .* is not a Strapi project/],
    [['--help'], 0, /--import/],
    [['.', '--key', 'k'], 2, /--key goes with --import/],
  ])('%j: exit %i', async (args, code, message) => {
    let output = '';
    const io = { stdout: (t: string) => void (output += t), stderr: (t: string) => void (output += t) };
    expect(await runServe(args as string[], io)).toBe(code);
    expect(output).toMatch(message);
  });
});
