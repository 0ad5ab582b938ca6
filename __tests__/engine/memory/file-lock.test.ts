import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryEngine } from '../../../lib/engine';

const WRITER = join(__dirname, 'durable-writer.fixture.ts');

/** Starts the durable writer fixture on `file` and resolves once it has acknowledged a write. */
function startWriter(file: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', WRITER, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ack ')) resolve(child);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`writer exited ${code}: ${stderr}`)));
  });
}

describe('memoryEngine({ file }): one writer per data file', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cr-lock-'));
    file = join(dir, 'content.db');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('refuses a second engine on the same file in the same process, until the first closes', async () => {
    const first = memoryEngine({ file });
    await first.init([{ name: 'items', indexes: [] }]);
    await first.insertMany('items', [{ id: 1 }]);
    const second = memoryEngine({ file });
    await expect(second.init([{ name: 'items', indexes: [] }])).rejects.toThrow(
      new RegExp(`^CR_DATA_FILE_LOCKED: memoryEngine: ${file.replace(/[.]/g, '\\.')} is in use by process ${process.pid} \\(since `),
    );
    await first.close();
    await second.init([{ name: 'items', indexes: [] }]);
    expect(await second.count('items', {})).toBe(1);
    await second.close();
  });

  it('refuses while another process writes, naming it, and opens once it was killed with SIGKILL', async () => {
    const writer = await startWriter(file);
    const exited = new Promise((r) => writer.once('exit', r));
    try {
      const engine = memoryEngine({ file });
      await expect(engine.count('items', {})).rejects.toThrow(`is in use by process ${writer.pid} (since `);
    } finally {
      writer.kill('SIGKILL');
      await exited;
    }
    const engine = memoryEngine({ file });
    expect(await engine.count('items', {})).toBeGreaterThan(0);
    await engine.close();
  });
});
