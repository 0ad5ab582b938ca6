import fs from 'node:fs';
import path from 'node:path';
import { memoryEngine } from '../../lib';
import { runTransferCommand, type TransferIo } from '../../lib/cli/transfer';
import { FIXTURE, readExport, tempDir } from './transfer-helpers';
import { HASHES, NOTE, PERMISSION, USER, usersExport } from './users-export';

const MODEL = path.join(__dirname, '..', '..', 'examples', 'blog', 'model');
const modelArgs = ['--schemas', path.join(MODEL, 'content-types'), '--components', path.join(MODEL, 'components'), '--locales', 'en,fr,de'];

function io(tty = false): TransferIo & { out: string; err: string } {
  const captured = { out: '', err: '' };
  return Object.assign(captured, { stdout: (t: string) => void (captured.out += t), stderr: (t: string) => void (captured.err += t), stderrIsTTY: tty });
}

describe('content-router import / export (the embedded engine\'s data file)', () => {
  it('imports the fixture into a new data file, exports it, and the export imports into another', async () => {
    const dir = tempDir('cli');
    const first = io();
    const args = [...modelArgs, '--data-file', path.join(dir, 'a.db'), '--uploads', path.join(dir, 'uploads-a')];
    expect(await runTransferCommand('import', [FIXTURE, ...args], first)).toBe(0);
    expect(first.out).toBe(`content-router: imported ${FIXTURE}: plugin::upload.file 8, api::about.about 2, api::article.article 149, api::author.author 4, api::category.category 10, api::global.global 1; 11 file(s)\n`);
    // Not a terminal: one line per stage, at its end.
    expect(first.err).toMatch(/^checking: 9\d\d \(0\.7 MB\) done\nentities: 174 done\nfiles: 11 \(0\.7 MB\) done\n$/);
    const exported = path.join(dir, 'out.tar.gz.enc');
    const second = io(true);
    expect(await runTransferCommand('export', [exported, ...args, '--key', 'k'], second)).toBe(0);
    expect(second.out).toMatch(/^content-router: exported 174 row\(s\), 11 file\(s\), \d+ link\(s\) to .*out\.tar\.gz\.enc\n$/);
    expect(second.err).toContain('\r\u001b[2Kentities: 174 done\n'); // a terminal: the line rewrites itself
    const third = io();
    expect(await runTransferCommand('import', [exported, ...modelArgs, '--key', 'k', '--data-file', path.join(dir, 'b.db'), '--uploads', path.join(dir, 'uploads-b')], third)).toBe(0);
    expect(fs.readdirSync(path.join(dir, 'uploads-b')).sort()).toEqual(fs.readdirSync(path.join(dir, 'uploads-a')).sort());
  });

  it('--users moves users, roles and grants (a user schema extension with --user-schema)', async () => {
    const dir = tempDir('cli-users');
    const note = path.join(dir, 'note.json');
    fs.writeFileSync(note, JSON.stringify(NOTE));
    const userSchema = path.join(dir, 'user.json');
    fs.writeFileSync(userSchema, JSON.stringify({ attributes: { username: { type: 'string' }, nickname: { type: 'string' } } }));
    const users = [...modelArgs, '--schemas', note, '--user-schema', userSchema];
    const file = await usersExport({ edit: (stage, line) => (line.type === USER && line.id === 1 ? { ...line, data: { ...(line.data as object), nickname: 'Al' } } : line) });
    const run = io();
    expect(await runTransferCommand('import', [file, ...users, '--data-file', path.join(dir, 'a.db'), '--uploads', path.join(dir, 'up')], run)).toBe(0);
    expect(run.out).toBe(`content-router: imported ${file}: plugin::users-permissions.role 3, plugin::users-permissions.user 2, api::note.note 2; 0 file(s)\n`);
    const exported = path.join(dir, 'out.tar.gz');
    expect(await runTransferCommand('export', [exported, ...users, '--data-file', path.join(dir, 'a.db'), '--uploads', path.join(dir, 'up')], io())).toBe(0);
    const lines = await readExport(exported);
    expect(lines.entities.filter((e) => e.type === USER).map((e) => [e.data.username, e.data.nickname, e.data.password])).toEqual([['alice', 'Al', HASHES.alice], ['bob', null, HASHES.bob]]);
    expect(lines.entities.filter((e) => e.type === PERMISSION)).toHaveLength(7);
    // Without --users the note type's relation to users has no target: the model is refused before anything is read.
    const without = io();
    expect(await runTransferCommand('import', [file, ...modelArgs, '--schemas', note, '--data-file', path.join(dir, 'b.db'), '--uploads', path.join(dir, 'up-b')], without)).toBe(1);
    expect(without.err).toMatch(/^content-router import: CR_UNKNOWN_TARGET: api::note.note.owner: relation to unknown type "plugin::users-permissions.user"/);
  });

  it('says the app is running when the data file is in use, and changes nothing', async () => {
    const dir = tempDir('cli-locked');
    const file = path.join(dir, 'content.db');
    const app = memoryEngine({ file });
    await app.init([]);
    try {
      const run = io();
      expect(await runTransferCommand('import', [FIXTURE, ...modelArgs, '--data-file', file, '--uploads', path.join(dir, 'uploads')], run)).toBe(1);
      expect(run.err).toMatch(/^content-router import: CR_DATA_FILE_LOCKED: memoryEngine: .*content\.db is in use by process \d+.*stop that process first/);
      expect(fs.existsSync(path.join(dir, 'uploads'))).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('answers a usage error with the usage (exit 2), a wrong key with the reason (exit 1)', async () => {
    const usage = io();
    expect(await runTransferCommand('import', [FIXTURE], usage)).toBe(2);
    expect(usage.err).toContain('give one <file>, --schemas and --uploads');
    const dir = tempDir('cli-key');
    const wrong = io();
    expect(await runTransferCommand('import', [FIXTURE, ...modelArgs, '--key', 'nope', '--data-file', path.join(dir, 'c.db'), '--uploads', dir], wrong)).toBe(1);
    expect(wrong.err).toBe(`content-router import: ${FIXTURE} cannot be decrypted with this key (or is not a Strapi export)\n`);
  });
});
