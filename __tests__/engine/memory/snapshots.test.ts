import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { promises as fsPromises } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryEngine, type Engine, type Row } from '../../../lib/engine';
import { decodeRecords } from '../../../lib/engine/memory/storage/journal-record';

const READERS = join(__dirname, 'snapshot-readers.fixture.ts');

/** Runs the readers fixture in a child process (a microtask spin would also stop this process's timers). */
function runReaders(file: string, snapshotBytes: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', READERS, file, String(snapshotBytes)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

async function rowsOf(file: string): Promise<Row[]> {
  const engine = memoryEngine({ file });
  try {
    return await engine.find('items', {}, { sort: { id: 1 } });
  } finally {
    await engine.close();
  }
}

describe('memoryEngine({ file }) snapshots', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cr-snapshots-'));
    file = join(dir, 'content.db');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('snapshots many times while readers loop and a writer writes, and never hangs', async () => {
    const { code, out } = await runReaders(file, 2000);
    expect(out).toMatch(/^done \d+\n$/);
    expect(code).toBe(0);
    const rows = await rowsOf(file);
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    expect(rows.filter((r) => r.touched === true).map((r) => r.id)).toEqual(Array.from({ length: 133 }, (_, i) => 3 * i + 2));
  });

  describe('in process', () => {
    let engine: Engine;
    afterEach(() => engine.close());

    async function writeRows(from: number, to: number): Promise<void> {
      for (let id = from; id <= to; id++) await engine.insertMany('items', [{ id, payload: 'y'.repeat(200) }]);
    }

    it('keeps writing and reading while the snapshot file is written, and drops only what the snapshot holds', async () => {
      engine = memoryEngine({ file, snapshotBytes: 4000 });
      await engine.init([{ name: 'items', indexes: [] }]);
      // Hold the snapshot's first file write until released: writes and reads must go on meanwhile.
      const realOpen = fsPromises.open;
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let snapshotStarted = false;
      const spy = jest.spyOn(fsPromises, 'open').mockImplementation(async (...args: Parameters<typeof realOpen>) => {
        if (String(args[0]).endsWith('content.db.tmp')) {
          snapshotStarted = true;
          await held;
        }
        return realOpen(...args);
      });
      try {
        await writeRows(1, 20);
        await new Promise((r) => setImmediate(r));
        expect(snapshotStarted).toBe(true);
        await writeRows(21, 30);
        expect(await engine.count('items', {})).toBe(30);
      } finally {
        release();
        spy.mockRestore();
      }
      // The held snapshot holds rows 1..~15; the rows written while it was held stay in the journal.
      const journalSize = async (): Promise<number> => (await stat(`${file}.journal`)).size;
      const full = await journalSize();
      for (let i = 0; i < 500 && (await journalSize()) === full; i++) await new Promise((r) => setTimeout(r, 10));
      const kept = await journalSize();
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(full);
      const inSnapshot = (await fsPromises.readFile(file, 'utf8')).match(/"id":\d+/g)!.map((m) => Number(m.slice(5)));
      const inJournal = decodeRecords(await fsPromises.readFile(`${file}.journal`)).records.flatMap((r) => r.ops.flatMap((op) => (op.op === 'put' ? op.rows.map((row) => row.id) : [])));
      expect(inSnapshot.length).toBeGreaterThan(0);
      expect([...inSnapshot, ...inJournal]).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      await writeRows(31, 32);
      await engine.close();
      expect((await rowsOf(file)).map((r) => r.id)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
      engine = memoryEngine({ file });
    });

    it('a failed snapshot is logged, retried only after another snapshotBytes of writes, and loses nothing', async () => {
      engine = memoryEngine({ file, snapshotBytes: 2000 });
      const errors: string[] = [];
      await engine.init([{ name: 'items', indexes: [] }], { logger: { info: () => undefined, warn: () => undefined, error: (m) => errors.push(m) } });
      const realOpen = fsPromises.open;
      let tries = 0;
      let full = true;
      const spy = jest.spyOn(fsPromises, 'open').mockImplementation(async (...args: Parameters<typeof realOpen>) => {
        if (String(args[0]).endsWith('content.db.tmp')) {
          tries++;
          if (full) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        }
        return realOpen(...args);
      });
      const settle = async (): Promise<void> => {
        for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      };
      try {
        for (let id = 1; id <= 12; id++) {
          await engine.insertMany('items', [{ id, payload: 'q'.repeat(200) }]);
          await settle();
        }
        // ~250 bytes a write: the first try at ~2,000 bytes, the next not before ~4,000.
        expect(tries).toBe(1);
        expect(errors).toEqual([expect.stringMatching(/^content-router: the snapshot of .*content\.db failed \(ENOSPC: no space left on device\); every write is still in the journal/)]);
        full = false;
        for (let id = 13; id <= 20; id++) {
          await engine.insertMany('items', [{ id, payload: 'q'.repeat(200) }]);
          await settle();
        }
        expect(tries).toBe(2);
      } finally {
        spy.mockRestore();
      }
      await engine.close();
      expect((await rowsOf(file)).map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      engine = memoryEngine({ file });
    });

    it('loses nothing when the process dies at any step of a snapshot', async () => {
      // At every rename (the snapshot's, the journal rewrite's), the files as they are just before and just
      // after it are copied aside: each copy is what a kill -9 at that moment leaves.
      engine = memoryEngine({ file, snapshotBytes: 3000 });
      await engine.init([{ name: 'items', indexes: [] }]);
      const realRename = fsPromises.rename;
      const images: string[] = [];
      let acked = 0;
      const capture = async (): Promise<void> => {
        // Writes acknowledged before the copy starts must be in it (the copy itself races later writes).
        const before = acked;
        const image = join(dir, `image-${images.length}`);
        await fsPromises.mkdir(image);
        for (const name of await readdir(dir)) if (name.startsWith('content.db')) await copyFile(join(dir, name), join(image, name));
        images.push(`${image}|${before}`);
      };
      const spy = jest.spyOn(fsPromises, 'rename').mockImplementation(async (from, to) => {
        await capture();
        await realRename(from, to);
        await capture();
      });
      try {
        for (let id = 1; id <= 60; id++) {
          await engine.insertMany('items', [{ id, payload: 'z'.repeat(150) }]);
          acked = id;
        }
        await engine.close();
      } finally {
        spy.mockRestore();
      }
      expect(images.length).toBeGreaterThanOrEqual(8);
      for (const entry of images) {
        const [image, count] = entry.split('|') as [string, string];
        const ids = (await rowsOf(join(image, 'content.db'))).map((r) => r.id as number);
        expect(ids.slice(0, Number(count))).toEqual(Array.from({ length: Number(count) }, (_, i) => i + 1));
      }
      engine = memoryEngine({ file });
    });
  });
});
