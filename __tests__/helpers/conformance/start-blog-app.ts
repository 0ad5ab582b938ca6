import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBlogApp } from '../../../examples/blog/app';
import type { ReplayTokens } from './build-request';

/** The example app, running empty on a free port for a replay. */
export interface RunningBlogApp {
  readonly base: string;
  close(): Promise<void>;
}

const PERMISSIONS_FILE = join(__dirname, '..', '..', '..', 'examples', 'blog', 'model', 'permissions.json');

/**
 * The full-access and read-only API tokens of the blog model's permissions.json (the example app's copy of
 * ../shared/fixtures/blog/permissions.json): the corpus was recorded with them.
 */
export function blogTokens(file: string = PERMISSIONS_FILE): ReplayTokens {
  const perms = JSON.parse(readFileSync(file, 'utf8')) as { apiTokens?: { type?: string; accessKey?: string }[] };
  const key = (type: string): string => {
    const t = (perms.apiTokens ?? []).find((x) => x.type === type)?.accessKey;
    if (!t) throw new Error(`${file}: no ${type} API token`);
    return t;
  };
  return { fullToken: key('full-access'), readonlyToken: key('read-only') };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
}

/**
 * Starts `examples/blog` empty (`seed: false`) on a free port with uploads in a temp dir. Works whether
 * `createBlogApp` listens on `port` itself or only builds the app (then it is listened on here).
 * @example const blog = await startBlogApp(); await replayCorpus(cases, blog.base, blogTokens()); await blog.close();
 */
export async function startBlogApp(): Promise<RunningBlogApp> {
  const uploadsDir = mkdtempSync(join(tmpdir(), 'cr-conformance-uploads-'));
  const port = await freePort();
  const blog = await createBlogApp({ seed: false, port, uploadsDir });
  let server: Server | undefined;
  if (!(await isListening(port))) {
    const s = blog.app.listen(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => s.once('listening', resolve).once('error', reject));
    server = s;
  }
  return {
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      if (server) await closeServer(server);
      await blog.close();
      rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}
