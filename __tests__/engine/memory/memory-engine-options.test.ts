import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContentRouter, memoryEngine, type MemoryEngineOptions } from '../../../lib';
import { httpComponents, httpContentTypes } from '../../fixtures/http-model';

const ITEMS = [{ name: 'items', indexes: [] }];

/** The warnings `process.emitWarning` was called with while `fn` ran (none reaches stderr). */
async function warningsOf(fn: () => Promise<unknown>): Promise<unknown[][]> {
  const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  try {
    await fn();
    return spy.mock.calls;
  } finally {
    spy.mockRestore();
  }
}

const MEMORY_ONLY = [expect.stringContaining('lost when the process ends'), { type: 'ContentRouterWarning', code: 'CR_MEMORY_ONLY' }];

describe('memoryEngine({ file }) in a folder that does not exist yet', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cr-mkdir-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('creates the folders (recursively) and keeps the data across a restart', async () => {
    const file = join(dir, 'data', 'nested', 'content.db');
    const engine = memoryEngine({ file });
    await engine.init(ITEMS);
    await engine.insertMany('items', [{ id: 1, name: 'kept' }]);
    await engine.close();
    expect((await stat(join(dir, 'data', 'nested'))).isDirectory()).toBe(true);
    const again = memoryEngine({ file });
    await again.init(ITEMS);
    expect(await again.find('items', {})).toMatchObject([{ id: 1, name: 'kept' }]);
    await again.close();
  });

  it('a folder that cannot be created fails start-up with the cause (no crash)', async () => {
    await writeFile(join(dir, 'a-file'), 'not a folder');
    await expect(memoryEngine({ file: join(dir, 'a-file', 'content.db') }).init(ITEMS)).rejects.toMatchObject({ code: expect.stringMatching(/^(ENOTDIR|EEXIST)$/) });
  });
});

describe('the CR_MEMORY_ONLY start-up warning', () => {
  it('memoryEngine() warns once, at init: the data would be lost on restart', async () => {
    const engine = memoryEngine();
    const warnings = await warningsOf(async () => {
      await engine.init(ITEMS);
      await engine.init(ITEMS);
      await engine.insertMany('items', [{ id: 1 }]);
    });
    expect(warnings).toEqual([MEMORY_ONLY]);
    await engine.close();
  });

  it('createContentRouter without an engine warns once at start-up', async () => {
    const warnings = await warningsOf(async () => {
      const router = createContentRouter({ contentTypes: httpContentTypes, components: httpComponents, upload: false });
      await router.ready;
      await router.engine.close();
    });
    expect(warnings).toEqual([MEMORY_ONLY]);
  });

  it.each([
    ['ephemeral: true (in memory on purpose)', (): MemoryEngineOptions => ({ ephemeral: true })],
    ['a file', (dir: string): MemoryEngineOptions => ({ file: join(dir, 'content.db') })],
  ])('%s: no warning', async (_label, options) => {
    const dir = await mkdtemp(join(tmpdir(), 'cr-quiet-'));
    const engine = memoryEngine(options(dir));
    try {
      expect(await warningsOf(() => engine.init(ITEMS))).toEqual([]);
    } finally {
      await engine.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each<[Record<string, unknown>, string]>([
    [{ fiel: 'x.db' }, 'memoryEngine(options).fiel: unknown option (did you mean "file"?)'],
    [{ ephemeal: true }, 'memoryEngine(options).ephemeal: unknown option (did you mean "ephemeral"?)'],
  ])('an unknown option %j is refused with a did-you-mean (a misspelled file would lose the data)', (options, message) => {
    expect(() => memoryEngine(options as never)).toThrow(message);
  });

  it('ephemeral and file together are refused (CR_INVALID_OPTIONS)', () => {
    expect(() => memoryEngine({ file: 'x.db', ephemeral: true })).toThrow(expect.objectContaining({ code: 'CR_INVALID_OPTIONS' }));
  });
});
