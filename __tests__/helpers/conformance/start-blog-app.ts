import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBlogApp } from '../../../examples/blog/app';
import type { ContentRouter } from '../../../lib';
import type { ReplayTokens } from './build-request';
import { testEngine } from '../test-engine';

/** The example app, running empty on a free port for a replay. */
export interface RunningBlogApp {
  readonly base: string;
  /** The example app's content router (its registry, `openapi()`). */
  readonly router: ContentRouter;
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

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
}

/**
 * Starts `examples/blog` empty (`seed: false`) on a free port with uploads in a temp dir, in its Strapi
 * compatibility mode (`strapiCompat`, what `STRAPI_COMPAT=1` gives `npm start`): the corpus was recorded on a
 * Strapi whose Public role reads drafts with `find` alone. `usersSessions`: in session mode (`USERS_SESSIONS=refresh`).
 * @example const blog = await startBlogApp(); await replayCorpus(cases, blog.base, blogTokens()); await blog.close();
 */
export async function startBlogApp(options: { usersSessions?: boolean } = {}): Promise<RunningBlogApp> {
  const uploadsDir = mkdtempSync(join(tmpdir(), 'cr-conformance-uploads-'));
  const blog = await createBlogApp({ seed: false, uploadsDir, engine: testEngine(), strapiCompat: true, usersSessions: options.usersSessions ?? false });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = blog.app.listen(0, '127.0.0.1');
    s.once('listening', () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    router: blog.router,
    close: async () => {
      await closeServer(server);
      await blog.close();
      rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}
