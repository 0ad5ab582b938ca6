import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createContentRouter, memoryEngine, type AuthOptions, type Engine, type Logger } from '../../lib';
import { httpComponents, httpContentTypes } from '../fixtures/http-model';

/** The start-up line: what runs, logged once with `logger.info` when the engine has started. */
function recorder(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) };
}

const TYPES = httpContentTypes.length;
const COMPONENTS = Object.keys(httpComponents).length;

async function lineFor(auth: AuthOptions | undefined, engine: Engine = memoryEngine({ ephemeral: true })): Promise<string[]> {
  const logger = recorder();
  const router = createContentRouter({ contentTypes: httpContentTypes, components: httpComponents, engine, upload: false, i18n: { locales: ['en', 'fr'], defaultLocale: 'en' }, auth, logger });
  expect(logger.lines).toEqual([]); // not before the engine has started
  await router.ready;
  return logger.lines;
}

describe('the start-up line', () => {
  const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined); // CR_AUTH_OPEN, CR_SHORT_ACCESS_KEY
  afterAll(() => warn.mockRestore());

  it.each<[string, AuthOptions | undefined, string]>([
    ['nothing allowed', undefined, 'nothing allowed (no Public role actions, no API token): every route answers 403'],
    ['a Public role, tokens and the host\'s users', {
      public: { actions: ['api::maker.maker.find', 'api::maker.maker.findOne'] },
      apiTokens: [{ name: 'a', type: 'full-access', accessKey: 'k'.repeat(256) }, { name: 'b', type: 'read-only', accessKey: 'l'.repeat(256) }],
      resolve: async () => null,
    }, "Public role 2 actions, 2 API tokens, the host's users (resolve)"],
    ['one token', { apiTokens: [{ name: 'a', type: 'full-access', accessKey: 'k'.repeat(256) }] }, '1 API token'],
    ['everything open', { public: 'all' }, "OPEN, every caller may do everything (public: 'all', local development only)"],
  ])('%s', async (_label, auth, described) => {
    expect(await lineFor(auth)).toEqual([
      `info content-router: ready: memory (in memory only); ${TYPES} content types, ${COMPONENTS} components; locales en (default), fr; auth: ${described}`,
    ]);
  });

  it.each([
    [{}, 'users-permissions (register, log in, JWTs)'],
    [{ jwtManagement: 'refresh' as const }, 'users-permissions (register, log in, sessions with refresh tokens)'],
  ])('names the users-permissions mode %j', async (mode, described) => {
    const lines = await lineFor({ users: { jwtSecret: 's'.repeat(32), email: { send: async () => undefined }, ...mode } });
    expect(lines.filter((l) => l.startsWith('info ')).map((l) => l.split('auth: ')[1])).toEqual([described]);
  });

  it('names the data file of a durable memory engine', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'start-up-line-'));
    const engine = memoryEngine({ file: path.join(dir, 'content.db') });
    try {
      expect((await lineFor(undefined, engine))[0]).toContain(`ready: memory (file ${path.join(dir, 'content.db')}); `);
    } finally {
      await engine.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names the engine as it describes itself, credentials redacted by the engine', async () => {
    const inner = memoryEngine({ ephemeral: true });
    const engine = Object.assign(Object.create(inner) as Engine, { describe: () => 'mongo mongodb://***@db:27017/cms' });
    expect((await lineFor(undefined, engine))[0]).toMatch(/^info content-router: ready: mongo mongodb:\/\/\*\*\*@db:27017\/cms; /);
  });

  it('is quiet by default under NODE_ENV=test (as Express keeps its logging out of tests), and with logger: false', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    const info = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    try {
      for (const logger of [undefined, false as const]) {
        const router = createContentRouter({ contentTypes: httpContentTypes, components: httpComponents, engine: memoryEngine({ ephemeral: true }), upload: false, logger });
        await router.ready;
      }
      expect(info).not.toHaveBeenCalled();
    } finally {
      info.mockRestore();
    }
  });

  it('goes to console.info by default outside tests', async () => {
    const info = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    const env = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      const router = createContentRouter({ contentTypes: httpContentTypes, components: httpComponents, engine: memoryEngine({ ephemeral: true }), upload: false });
      await router.ready;
      expect(info.mock.calls).toEqual([[expect.stringMatching(/^content-router: ready: memory \(in memory only\); /)]]);
    } finally {
      process.env.NODE_ENV = env;
      info.mockRestore();
    }
  });

  it.each([
    ['a string', 'console'],
    ['an object without error()', { info: () => undefined, warn: () => undefined }],
  ])('the logger option is checked: %s is refused', (_label, logger) => {
    expect(() => createContentRouter({ contentTypes: httpContentTypes, engine: memoryEngine({ ephemeral: true }), logger: logger as never })).toThrow(
      'CR_INVALID_OPTIONS: options.logger must be false or a logger with info, warn and error methods',
    );
  });
});
