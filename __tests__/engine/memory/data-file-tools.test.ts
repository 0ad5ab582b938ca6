import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backupDataFile, memoryEngine, repairDataFile, verifyDataFile, type EmbeddedEngine, type Row } from '../../../lib/engine';
import { encodeRecord } from '../../../lib/engine/memory/storage/journal-record';
import { runDataFileCommand } from '../../../lib/cli/data-file';
import { abandon } from './crash';

const INDEXES = [{ name: 'items', indexes: [] }];

async function idsIn(file: string): Promise<number[]> {
  const engine = memoryEngine({ file });
  try {
    return (await engine.find('items', {}, { sort: { id: 1 } })).map((r: Row) => r.id as number);
  } finally {
    await engine.close();
  }
}

function captured(): { io: { stdout(t: string): void; stderr(t: string): void }; out: () => string } {
  let text = '';
  return { io: { stdout: (t) => (text += t), stderr: (t) => (text += t) }, out: () => text };
}

describe('the data file: verify, repair, backup', () => {
  let dir: string;
  let file: string;
  let engine: EmbeddedEngine | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cr-datafile-'));
    file = join(dir, 'content.db');
  });
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  async function crashedWithTornTail(): Promise<void> {
    const e = memoryEngine({ file, snapshotBytes: 300 });
    await e.init(INDEXES);
    for (let id = 1; id <= 5; id++) await e.insertMany('items', [{ id }]);
    await abandon(e);
    const torn = encodeRecord({ seq: 99, ops: [{ op: 'put', c: 'items', rows: [{ _id: 'x', id: 6 }] }] });
    await appendFile(`${file}.journal`, torn.subarray(0, torn.length - 4));
  }

  it('verifies a sound file, reports a torn tail, repairs it and compacts the file', async () => {
    await crashedWithTornTail();
    const before = await verifyDataFile(file);
    expect(before.ok).toBe(false);
    expect(before.collections).toEqual({ items: 5 });
    expect(before.problems).toEqual([expect.stringMatching(/^journal: \d+ bytes after record \d+ are torn/)]);
    const cli = captured();
    expect(await runDataFileCommand('verify', [file], cli.io)).toBe(1);
    expect(cli.out()).toContain('problem: journal:');

    const repaired = captured();
    expect(await runDataFileCommand('repair', [file], repaired.io)).toBe(0);
    expect(repaired.out()).toMatch(/repaired: dropped the journal's torn tail \(\d+ bytes, never acknowledged\)/);
    const after = await verifyDataFile(file);
    expect(after).toMatchObject({ ok: true, problems: [], collections: { items: 5 }, journal: { bytes: 0, records: 0 } });
    expect(await idsIn(file)).toEqual([1, 2, 3, 4, 5]);
  });

  it('reports keys two rows share (two writers on one file) and does not repair them', async () => {
    const rows = (id: number, key: string): Buffer => encodeRecord({ seq: id, ops: [{ op: 'put', c: 'items', rows: [{ _id: key, id, documentId: 'd1', locale: 'en', _status: 'draft' }] }] });
    await writeFile(`${file}.journal`, Buffer.concat([rows(1, 'a'), rows(2, 'b')]));
    const report = await verifyDataFile(file);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([expect.stringContaining('items: 1 documentId, locale, status value(s) held by more than one row ("[\\"d1\\",\\"en\\",\\"draft\\"]")')]);
    const journal = await readFile(`${file}.journal`);
    const cli = captured();
    expect(await runDataFileCommand('repair', [file], cli.io)).toBe(1);
    expect(cli.out()).toContain('not repaired');
    expect(await readFile(`${file}.journal`)).toEqual(journal);
  });

  it('refuses to repair a file a running engine holds', async () => {
    engine = memoryEngine({ file });
    await engine.init(INDEXES);
    await expect(repairDataFile(file)).rejects.toThrow('CR_DATA_FILE_LOCKED');
    const cli = captured();
    expect(await runDataFileCommand('repair', [file], cli.io)).toBe(1);
    expect(cli.out()).toContain(`is in use by process ${process.pid}`);
  });

  it('backs up a running engine consistently, from the outside and with engine.backup, while it writes and snapshots', async () => {
    engine = memoryEngine({ file, snapshotBytes: 1500 });
    await engine.init(INDEXES);
    let acked = 0;
    const writer = (async () => {
      for (let id = 1; id <= 300; id++) {
        await engine!.insertMany('items', [{ id, payload: 'p'.repeat(40) }]);
        acked = id;
      }
    })();
    const checks: Promise<void>[] = [];
    for (let n = 0; n < 12; n++) {
      await new Promise((r) => setTimeout(r, 5));
      const before = acked;
      const outside = join(dir, `outside-${n}.db`);
      const inside = join(dir, `inside-${n}.db`);
      checks.push(
        (async () => {
          await backupDataFile(file, outside);
          await engine!.backup(inside);
          for (const copy of [outside, inside]) {
            const ids = await idsIn(copy);
            expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));
            expect(ids.length).toBeGreaterThanOrEqual(before);
          }
        })(),
      );
    }
    await writer;
    await Promise.all(checks);
    const last = join(dir, 'last.db');
    const cli = captured();
    expect(await runDataFileCommand('backup', [file, last], cli.io)).toBe(0);
    expect(cli.out()).toContain('(300 rows in 1 collections');
    expect(await idsIn(last)).toHaveLength(300);
    await expect(engine.backup(`${file}.journal`)).rejects.toThrow("is the engine's own data file");
  });
});
