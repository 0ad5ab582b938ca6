import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryEngine, type Engine } from '../../../lib/engine';
import { decodeRecords } from '../../../lib/engine/memory/storage/journal-record';

/**
 * memoryEngine({ file }) commits the transactions that arrive while a journal sync runs with one sync (group commit,
 * storage/durable-file), and answers each writer only once its record is on disk. The journal's handle is watched
 * through FileHandle's prototype: bytes written per handle, and the bytes a finished datasync made durable.
 */
describe('memoryEngine({ file }) group commit', () => {
  let dir: string;
  let file: string;
  let proto: FileHandle;
  const written = new Map<FileHandle, number>();
  const durable = new Map<FileHandle, number>();
  let syncs = 0;
  let failNextSync = false;
  beforeAll(async () => {
    const probe = await open(join(tmpdir(), `cr-probe-${process.pid}`), 'a');
    proto = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    rmSync(join(tmpdir(), `cr-probe-${process.pid}`), { force: true });
    const write = proto.write;
    const datasync = proto.datasync;
    jest.spyOn(proto, 'write').mockImplementation(async function (this: FileHandle, ...args: unknown[]) {
      const result = await (write as (...a: unknown[]) => Promise<{ bytesWritten: number }>).apply(this, args);
      written.set(this, (written.get(this) ?? 0) + result.bytesWritten);
      return result as never;
    });
    jest.spyOn(proto, 'datasync').mockImplementation(async function (this: FileHandle) {
      const upTo = written.get(this) ?? 0;
      if (failNextSync) {
        failNextSync = false;
        throw Object.assign(new Error('ENOSPC: no space left on device (test)'), { code: 'ENOSPC' });
      }
      await datasync.apply(this);
      syncs++;
      durable.set(this, upTo);
    });
  });
  afterAll(() => jest.restoreAllMocks());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cr-group-'));
    file = join(dir, 'content.db');
    syncs = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const start = async (): Promise<Engine> => {
    const engine = memoryEngine({ file });
    await engine.init([{ name: 'items', indexes: [{ name: 'id', keys: { id: 1 }, unique: true }] }]);
    return engine;
  };
  /** The ids of the rows the journal holds in its durable bytes (those a finished datasync covered). */
  const durableIds = (): Set<unknown> => {
    const bytes = Math.max(0, ...durable.values());
    const { records } = decodeRecords(readFileSync(`${file}.journal`).subarray(0, bytes));
    return new Set(records.flatMap((r) => r.ops.flatMap((op) => (op.op === 'put' && op.c === 'items' ? op.rows.map((row) => row.id) : []))));
  };

  it('syncs concurrent writers together and acknowledges each only once its record is durable', async () => {
    written.clear();
    durable.clear();
    const engine = await start();
    const before = syncs;
    const early: number[] = [];
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        if (i % 2) await engine.transaction(() => engine.insertMany('items', [{ id: i, n: i }]));
        else await engine.insertMany('items', [{ id: i, n: i }]);
        if (!durableIds().has(i)) early.push(i);
      }),
    );
    expect(early).toEqual([]);
    expect(syncs - before).toBeLessThan(20); // one sync per write before: 40
    await engine.close();
    const reopened = await start();
    expect((await reopened.find('items', {})).map((r) => r.id).sort((a, b) => (a as number) - (b as number))).toEqual(Array.from({ length: 40 }, (_, i) => i));
    await reopened.close();
  });

  it('undoes every transaction of a failed sync and those after it; later writes go on; memory and file agree', async () => {
    const engine = await start();
    await engine.insertMany('items', [{ id: 0, n: 0 }]);
    failNextSync = true;
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => engine.transaction(async () => {
      await engine.insertMany('items', [{ id: i + 1, n: i + 1 }]);
      await engine.updateMany('items', { id: 0 }, { $inc: { n: 1 } });
    })));
    const acked = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i + 1] : []));
    expect(outcomes.some((o) => o.status === 'rejected')).toBe(true);
    expect(outcomes.filter((o) => o.status === 'rejected').every((o) => /ENOSPC/.test(String((o as PromiseRejectedResult).reason)))).toBe(true);
    const rows = async (e: Engine) => (await e.find('items', {}, { sort: { id: 1 } })).map((r) => [r.id, r.n]);
    const expected = [[0, acked.length], ...acked.map((id) => [id, id])];
    expect(await rows(engine)).toEqual(expected);
    await engine.insertMany('items', [{ id: 100, n: 100 }]);
    expected.push([100, 100]);
    await engine.close();
    const reopened = await start();
    expect(await rows(reopened)).toEqual(expected);
    await reopened.close();
  });
});
