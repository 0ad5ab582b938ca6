import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryEngine, type Row } from '../../../lib/engine';
import { decodeRecords, encodeRecord } from '../../../lib/engine/memory/storage/journal-record';
import { abandon } from './crash';

const WRITER = join(__dirname, 'durable-writer.fixture.ts');

/** Runs the writer until it has acknowledged a few writes, then SIGKILLs it after a random delay. */
function runAndKill(file: string): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', WRITER, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acked: number[] = [];
    let buffered = '';
    let stderr = '';
    let armed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) if (line.startsWith('ack ')) acked.push(Number(line.slice(4)));
      if (!armed && acked.length > 0) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), 50 + Math.floor(Math.random() * 400));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve(acked) : reject(new Error(`writer exited ${code}: ${stderr}`))));
  });
}

async function load(file: string): Promise<Row[]> {
  const engine = memoryEngine({ file });
  const rows = await engine.find('items', {});
  await engine.close();
  return rows;
}

describe('memoryEngine({ file }) durability', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cr-durable-'));
    file = join(dir, 'content.db');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps every acknowledged write across two kill -9s during a write burst', async () => {
    const acked: number[] = [];
    for (let round = 0; round < 2; round++) {
      acked.push(...(await runAndKill(file)));
      const ids = new Set((await load(file)).map((r) => r.id));
      expect(acked.filter((id) => !ids.has(id))).toEqual([]);
    }
    const rows = await load(file);
    expect(rows.map((r) => r.id)).toEqual(rows.map((_, i) => i + 1));
    expect(rows.filter((r) => (r.id as number) % 2 === 0 && r.id !== rows.length).every((r) => r.touched === true)).toBe(true);
    expect(acked.length).toBeGreaterThan(0);
  });

  it('ignores a torn last record and appends after the valid prefix', async () => {
    const engine = memoryEngine({ file });
    await engine.insertMany('items', [{ id: 1 }]);
    await engine.insertMany('items', [{ id: 2 }]);
    const torn = encodeRecord({ seq: 3, ops: [{ op: 'put', c: 'items', rows: [{ _id: 'x', id: 3 }] }] });
    await abandon(engine);
    await appendFile(`${file}.journal`, torn.subarray(0, torn.length - 5));
    const reopened = memoryEngine({ file });
    expect((await reopened.find('items', {})).map((r) => r.id)).toEqual([1, 2]);
    await reopened.insertMany('items', [{ id: 4 }]);
    const journal = await readFile(`${file}.journal`);
    expect(decodeRecords(journal).validBytes).toBe(journal.length);
    await reopened.close();
    expect((await load(file)).map((r) => r.id)).toEqual([1, 2, 4]);
  });

  it('stops replay at a record whose checksum does not match', async () => {
    const engine = memoryEngine({ file });
    await engine.insertMany('items', [{ id: 1 }]);
    await engine.insertMany('items', [{ id: 2 }]);
    await abandon(engine);
    const journal = await readFile(`${file}.journal`);
    journal[journal.length - 3] = journal[journal.length - 3]! ^ 0xff;
    await writeFile(`${file}.journal`, journal);
    expect((await load(file)).map((r) => r.id)).toEqual([1]);
  });

  it('writes a snapshot and empties the journal on close; counters survive a restart', async () => {
    const engine = memoryEngine({ file });
    await engine.insertMany('items', [{ id: await engine.nextId('items') }]);
    await engine.close();
    expect((await stat(`${file}.journal`)).size).toBe(0);
    const reopened = memoryEngine({ file });
    expect(await reopened.nextId('items')).toBe(2);
    expect((await reopened.find('items', {})).map((r) => r.id)).toEqual([1]);
    await reopened.close();
  });

  it('refuses to start on a snapshot of a format version it does not read', async () => {
    await writeFile(file, '{"format":"content-router-memory-snapshot","version":2,"seq":0}\n{"end":true,"lines":0}\n');
    await expect(memoryEngine({ file }).find('items', {})).rejects.toThrow('has format version 2; this release reads version 1 (upgrade content-router)');
  });

  it('refuses to start on a damaged snapshot', async () => {
    await writeFile(file, '{"format":"content-router-memory-snapshot","version":1,"seq":1}\n{"c":"items","rows":[]}\n');
    await expect(memoryEngine({ file }).find('items', {})).rejects.toThrow('damaged');
  });
});

describe('memoryEngine({ file }): work a transaction leaves behind', () => {
  it('writes in a transaction of its own, journaled, once the transaction is over', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cr-leftover-'));
    const file = join(dir, 'content.db');
    try {
      const engine = memoryEngine({ file });
      await engine.init([{ name: 'items', indexes: [] }]);
      let later: Promise<void> | undefined;
      await engine.transaction(async () => {
        await engine.insertMany('items', [{ id: 1 }]);
        // Started inside the transaction's async context, run after it committed.
        later = new Promise((resolve, reject) => setTimeout(() => engine.insertMany('items', [{ id: 2 }]).then(resolve, reject), 20));
      });
      await later;
      // As after a kill -9: what the journal holds, no snapshot written at close.
      await abandon(engine);
      expect((await load(file)).map((r) => r.id)).toEqual([1, 2]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
