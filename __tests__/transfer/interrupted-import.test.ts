import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { memoryEngine, mongoEngine, type Engine } from '../../lib';
import { loadBlogModel } from '../../examples/blog/model';
import { importStrapiExport } from '../../lib/transfer';
import { prng } from '../helpers/prng';
import { testDatabaseUri } from '../helpers/test-engine';
import { FIXTURE, LOCALES, tempDir } from './transfer-helpers';

/**
 * An import is all or nothing against kill -9: a child process importing the blog fixture is killed at random
 * steps of its write pass (an engine write, a file moved into the uploads folder); the store it leaves holds no
 * row and no file of the import, or all of them (killed past the commit point), and the next import rolls back
 * (or completes) what the marker says and then runs. On the memory engine's data file, and on MongoDB when
 * MONGODB_URI is set. Without a fixed point in time: the steps are counted, and picked by a seeded PRNG.
 */
const CHILD = path.join(__dirname, 'import-child.fixture.ts');
const COLLECTIONS = ['articles', 'authors', 'categories', 'abouts', 'globals', 'files', '_strapi_transfer', '_single_types', '_strapi_import'];

interface Store {
  env: Record<string, string>;
  open(): Engine;
}

function memoryStore(): Store {
  const file = path.join(tempDir('killed'), 'content.db');
  return { env: { STORE_FILE: file }, open: () => memoryEngine({ file }) };
}

function mongoStore(): Store {
  const uri = testDatabaseUri();
  return { env: { STORE_URI: uri }, open: () => mongoEngine({ uri }) };
}

function runChild(store: Store, uploads: string, env: Record<string, string>): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', CHILD, FIXTURE, uploads], { env: { ...process.env, ...store.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

async function countRows(engine: Engine): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const name of COLLECTIONS) out[name] = await engine.count(name, {});
  return out;
}

async function counts(store: Store): Promise<Record<string, number>> {
  const engine = store.open();
  try {
    return await countRows(engine);
  } finally {
    await engine.close();
  }
}

/** The state of the marker an import left in the store. */
async function markerState(store: Store): Promise<string> {
  const engine = store.open();
  try {
    const [marker] = await engine.find('_strapi_import', { _id: 'import' });
    return marker!.state as string;
  } finally {
    await engine.close();
  }
}

/** The next import, in this process (the killed one's process is gone): its message, and what the store holds then. */
async function importAgain(store: Store, uploads: string): Promise<{ message: string; rows: Record<string, number> }> {
  const engine = store.open();
  const model = loadBlogModel();
  const target = { engine, contentTypes: model.contentTypes, components: model.components, i18n: { locales: LOCALES, defaultLocale: 'en' } };
  try {
    const message = await importStrapiExport(target, FIXTURE, { uploads: { directory: uploads } }).then(
      (result) => result.recovered ?? '',
      (error: unknown) => (error as Error).message,
    );
    return { message, rows: await countRows(engine) };
  } finally {
    await engine.close();
  }
}

/** The uploads folder's files (not the staging folder of an import that did not finish). */
const files = (uploads: string): string[] => (fs.existsSync(uploads) ? fs.readdirSync(uploads).filter((n) => !n.startsWith('.')).sort() : []);
const empty = Object.fromEntries(COLLECTIONS.map((c) => [c, 0]));

const engines: [string, () => Store][] = [['memory', memoryStore]];
if (process.env.MONGODB_URI) engines.push(['mongo', mongoStore]);

describe.each(engines)('an import killed with SIGKILL at random steps of its write pass (%s)', (name, makeStore) => {
  const modes = name === 'memory' ? [['one transaction', '0'], ['batches, as on MongoDB', '1']] : [['batches', '1']];

  it.each(modes)('%s: the store holds none of it or all of it; the next import rolls back and runs', async (_mode, batches) => {
    // A clean import: how many steps it takes, and what it writes.
    const clean = makeStore();
    const cleanUploads = tempDir('clean-uploads');
    const done = await runChild(clean, cleanUploads, { BATCHES: batches });
    expect(done.stderr).toBe('');
    const { steps } = JSON.parse(done.stdout) as { steps: number };
    const full = await counts(clean);
    expect(full._strapi_import).toBe(0);
    const fullFiles = files(cleanUploads);
    expect(fullFiles).toHaveLength(11);
    expect(full.articles).toBeGreaterThan(0);

    // Three points: one in each half of the write pass, picked by a seeded PRNG, and the last step (every file moved in).
    const random = prng(name === 'memory' ? 29 + Number(batches) : 31);
    const half = Math.floor(steps / 2);
    const points = [1 + Math.floor(random() * half), half + 1 + Math.floor(random() * (steps - half - 1)), steps];
    for (const killAt of points) {
      const store = makeStore();
      const uploads = tempDir('killed-uploads');
      const killed = await runChild(store, uploads, { BATCHES: batches, KILL_AT: String(killAt) });
      expect({ killAt, signal: killed.signal }).toEqual({ killAt, signal: 'SIGKILL' });
      const { _strapi_import: marker, ...rows } = await counts(store);
      const { _strapi_import: _, ...fullRows } = full;
      const none = Object.values(rows).every((n) => n === 0);
      const state = marker ? await markerState(store) : null;
      if (state === 'writing' && batches === '1') {
        // Written in batches (as on MongoDB): rows of the import may be there, all recorded by its marker, which the
        // next import rolls back. Never more than the import writes.
        for (const [collection, n] of Object.entries(rows)) expect({ killAt, collection, n: Math.min(n, fullRows[collection]!) }).toEqual({ killAt, collection, n });
      } else {
        // One transaction: nothing of the import, or every row of it (past the commit point: its marker stays until
        // its files are in).
        expect({ killAt, state, outcome: none ? 'none' : rows }).toEqual({ killAt, state, outcome: state === 'committing' || (!none && !marker) ? fullRows : 'none' });
      }
      if (state !== 'committing' && marker) expect({ killAt, files: files(uploads) }).toEqual({ killAt, files: [] });

      const again = await importAgain(store, uploads);
      // The next import rolls back what the marker says, then imports; past the commit point it completes the
      // killed one, then finds the store full.
      const expected = state === 'writing' ? /that did not finish was rolled back$/ : state === 'committing' ? /had written everything: it was completed; the store is not empty/ : none ? /^$/ : /^the store is not empty/;
      expect({ killAt, message: again.message }).toEqual({ killAt, message: expect.stringMatching(expected) });
      expect({ killAt, rows: again.rows }).toEqual({ killAt, rows: full });
      expect({ killAt, files: files(uploads) }).toEqual({ killAt, files: fullFiles });
      expect(fs.readdirSync(uploads).filter((n) => n.startsWith('.'))).toEqual([]);
    }
  }, 600_000);
});

describe('an import interrupted in its process', () => {
  it('SIGINT to `content-router import` stops it, takes back what it wrote and exits 130', async () => {
    const dir = tempDir('sigint');
    const dataFile = path.join(dir, 'content.db');
    const uploads = path.join(dir, 'uploads');
    const model = path.join(__dirname, '..', '..', 'examples', 'blog', 'model');
    const args = [path.join(__dirname, '..', '..', 'lib', 'cli.ts'), 'import', FIXTURE, '--schemas', path.join(model, 'content-types'), '--components', path.join(model, 'components'), '--locales', LOCALES.join(','), '--data-file', dataFile, '--uploads', uploads];
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      let sent = false;
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
        // The check pass is over: the write pass starts now, and stops at its next row or file.
        if (!sent && /checking: .* done/.test(stderr)) {
          sent = true;
          child.kill('SIGINT');
        }
      });
      child.stdout.resume();
      child.on('exit', (code) => resolve({ code, stderr }));
    });
    expect(result.stderr).toMatch(/SIGINT: stopping, and taking back what was written/);
    expect(result.stderr).toMatch(/the import was interrupted \(SIGINT\); nothing was imported/);
    expect(result.code).toBe(130);
    const store: Store = { env: {}, open: () => memoryEngine({ file: dataFile }) };
    expect(await counts(store)).toEqual(empty);
    expect(files(uploads)).toEqual([]);
    expect(fs.existsSync(uploads) ? fs.readdirSync(uploads) : []).toEqual([]);
  }, 300_000);
});
