import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { memoryEngine } from '../../../lib/engine';

/**
 * `content-router verify|repair|backup` as a user runs them (the CLI in a process of its own, through ts-node):
 * a mistyped path fails instead of passing for an empty store, and a backup goes into a folder that does not
 * exist yet.
 */
const ROOT = path.join(__dirname, '..', '..', '..');
jest.setTimeout(180_000); // each CLI run compiles with ts-node: seconds each on a loaded machine

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', 'lib/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('content-router verify, repair and backup of a data file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cr-cli-datafile-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function dataFile(): Promise<string> {
    const file = path.join(dir, 'content.db');
    const engine = memoryEngine({ file });
    await engine.init([{ name: 'items', indexes: [] }]);
    await engine.insertMany('items', [{ id: 1 }, { id: 2 }]);
    await engine.close();
    return file;
  }

  it('verify: a path with no data file fails (exit 1) and says so', () => {
    const missing = path.join(dir, 'contnet.db');
    const r = cli(['verify', missing]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`${missing}: 1 problem(s)`);
    expect(r.stdout).toContain(`problem: no data file at ${missing}: neither it nor ${missing}.journal exists`);
    expect(r.stdout).not.toMatch(/: ok$/m);
    const json = cli(['verify', missing, '--json']);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, problems: [expect.stringContaining('no data file at')] });
  });

  it('verify: a real file still passes', async () => {
    const file = await dataFile();
    const r = cli(['verify', file]);
    expect(r).toMatchObject({ status: 0, stdout: expect.stringContaining(`${file}: ok`) });
  });

  it('repair and backup: a path with no data file fails (exit 1) and leaves nothing behind', () => {
    const missing = path.join(dir, 'contnet.db');
    for (const args of [['repair', missing], ['backup', missing, path.join(dir, 'copy.db')]]) {
      const r = cli(args);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`content-router ${args[0]}: no data file at ${missing}`);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it("backup: refuses to write over the data file's own files", async () => {
    const file = await dataFile();
    for (const out of [file, `${file}.journal`]) {
      const r = cli(['backup', file, out]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`content-router backup: ${out} is one of the data file's own files; write the backup elsewhere`);
    }
    expect(cli(['verify', file])).toMatchObject({ status: 0, stdout: expect.stringContaining('rows: items 2') });
  });

  it('backup: creates the folders of the backup file, and the copy is the data', async () => {
    const file = await dataFile();
    const out = path.join(dir, 'backups', 'nightly', 'content.db');
    const r = cli(['backup', file, out]);
    expect(r).toMatchObject({ status: 0, stderr: '' });
    expect(r.stdout).toContain('(2 rows in 1 collections');
    expect(existsSync(out)).toBe(true);
    expect(cli(['verify', out])).toMatchObject({ status: 0, stdout: expect.stringContaining('rows: items 2') });
  });
});
