import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { memoryEngine } from '../../../lib';
import { backupDataFile } from '../../../lib/engine/memory/storage/data-file-tools';
import { createArchiveWriter } from '../../../lib/transfer/archive-writer';
import { createUsersApp, registerUser } from './users-helpers';

// Issue 28 (Medium 6): the files that hold users' bcrypt hashes and live reset tokens (the embedded engine's data
// file and journal, a backup, an export archive) are created readable by their owner only.
const modeOf = (file: string): number => fs.statSync(file).mode & 0o777;

(process.platform === 'win32' ? describe.skip : describe)('files holding password hashes', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cr-private-files-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates the data file, its journal and a backup with mode 0600, whatever the umask allows', async () => {
    const file = path.join(dir, 'content.db');
    const engine = memoryEngine({ file });
    const t = await createUsersApp({}, engine);
    await registerUser(t.app, 'mallory');
    expect((await request(t.app).post('/api/auth/forgot-password').send({ email: 'mallory@example.com' })).status).toBe(200);
    expect(modeOf(`${file}.journal`)).toBe(0o600);
    await engine.close(); // writes the last snapshot
    expect(modeOf(file)).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/\$2[ab]\$10\$/); // what is at stake
    await backupDataFile(file, path.join(dir, 'backup.db'));
    expect(modeOf(path.join(dir, 'backup.db'))).toBe(0o600);
  });

  it('creates an export archive with mode 0600', async () => {
    const out = path.join(dir, 'export.tar.gz');
    const writer = createArchiveWriter(out);
    const entities = writer.jsonl('entities');
    await entities.write({ type: 'plugin::users-permissions.user', id: 1, data: { password: '$2a$10$hash' } });
    await entities.close();
    await writer.finish();
    expect(modeOf(out)).toBe(0o600);
  });
});
