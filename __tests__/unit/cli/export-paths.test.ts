import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { memoryEngine } from '../../../lib';
import { runTransferCommand, type TransferIo } from '../../../lib/cli/transfer';

/**
 * `content-router export` and its paths: a mistyped `--data-file` is refused (opening it would create an empty
 * store and export nothing, exit 0), and the archive goes into a folder created when missing.
 */
const MODEL = path.join(__dirname, '..', '..', '..', 'examples', 'blog', 'model');
const modelArgs = ['--schemas', path.join(MODEL, 'content-types'), '--components', path.join(MODEL, 'components'), '--locales', 'en,fr,de'];

function io(): TransferIo & { out: string; err: string } {
  const captured = { out: '', err: '' };
  return Object.assign(captured, { stdout: (t: string) => void (captured.out += t), stderr: (t: string) => void (captured.err += t), stderrIsTTY: false });
}

describe('content-router export: the paths it is given', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cr-cli-export-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a --data-file where no data file is (exit 1), and creates nothing', async () => {
    const missing = path.join(dir, 'contnet.db');
    const run = io();
    expect(await runTransferCommand('export', [path.join(dir, 'back.tar.gz'), ...modelArgs, '--data-file', missing, '--uploads', path.join(dir, 'uploads')], run)).toBe(1);
    expect(run.err).toBe(`content-router export: --data-file: no data file at ${missing}: neither it nor ${missing}.journal exists (check the path; memoryEngine({ file }) creates them at its first start)\n`);
    expect(run.out).toBe('');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes the archive into a folder that does not exist yet', async () => {
    const file = path.join(dir, 'content.db');
    const engine = memoryEngine({ file });
    await engine.init([]);
    await engine.close();
    const out = path.join(dir, 'exports', 'nightly', 'back.tar.gz');
    const run = io();
    expect(await runTransferCommand('export', [out, ...modelArgs, '--data-file', file, '--uploads', path.join(dir, 'uploads')], run)).toBe(0);
    expect(run.out).toBe(`content-router: exported 0 row(s), 0 file(s), 0 link(s) to ${out}\n`);
    expect(existsSync(out)).toBe(true);
  });
});
