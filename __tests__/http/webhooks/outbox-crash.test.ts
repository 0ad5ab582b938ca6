import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blogTokens } from '../../helpers/conformance/start-blog-app';
import { startReceiver, type WebhookReceiver } from '../../helpers/conformance/webhook-receiver';
import { waitFor } from '../../helpers/webhooks';

const ROOT = join(__dirname, '..', '..', '..');

/** examples/blog in a child process on a data file, with a webhook to the receiver. */
async function startChild(dataFile: string, receiver: WebhookReceiver): Promise<{ child: ChildProcess; base: string; exited: Promise<unknown> }> {
  // The call of an attempt may hang for a minute: the lease of 300 ms is what lets a restarted instance take over.
  const settings = { timeoutMS: 60_000, leaseMS: 300, pollMS: 20, concurrency: 4 };
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '__tests__/helpers/webhook-child.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', DATA_FILE: dataFile, WEBHOOK_URL: receiver.url, WEBHOOK_SETTINGS: JSON.stringify(settings) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => void (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => void (output += c.toString()));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await waitFor(() => {
    if (child.exitCode !== null) throw new Error(`the child exited: ${output}`);
    return /listening \d+/.test(output);
  });
  return { child, base: `http://127.0.0.1:${/listening (\d+)/.exec(output)![1]}`, exited };
}

async function createCategory(base: string, name: string): Promise<string> {
  const res = await fetch(`${base}/api/categories`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${blogTokens().fullToken}` },
    body: JSON.stringify({ data: { name } }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { documentId: string } }).data.documentId;
}

describe('the outbox across a crash (embedded engine, SIGKILL)', () => {
  let dir: string;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cr-outbox-crash-'));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers after a restart every event whose write was acknowledged, with the same delivery ids', async () => {
    const dataFile = join(dir, 'content.db');
    receiver.answer(() => 'hang'); // the first instance's calls never get an answer
    const first = await startChild(dataFile, receiver);
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three', 'four', 'five', 'six']) ids.push(await createCategory(first.base, name));
    // Some calls are in flight (4 at most: concurrency), the others are still waiting in the outbox.
    await waitFor(() => receiver.calls.length >= 1);
    first.child.kill('SIGKILL');
    await first.exited;
    const before = receiver.calls.map((c) => String(c.headers['webhook-id']));
    expect(before.length).toBeLessThan(6);

    receiver.answer(() => 200);
    const second = await startChild(dataFile, receiver);
    try {
      const delivered = (): string[] => receiver.calls.slice(before.length).map((c) => (c.body as { entry: { documentId: string } }).entry.documentId);
      await waitFor(() => new Set(delivered()).size === 6);
      expect(new Set(delivered())).toEqual(new Set(ids));
      // The calls cut short by the crash are sent again with the delivery id they had: receivers drop duplicates by it.
      const after = receiver.calls.slice(before.length).map((c) => String(c.headers['webhook-id']));
      expect(after.filter((id) => before.includes(id)).sort()).toEqual([...before].sort());
      expect(receiver.calls.slice(before.length).every((c) => c.headers['x-strapi-event'] === 'entry.create')).toBe(true);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 60_000);
});
