import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blogTokens } from '../../helpers/conformance/start-blog-app';
import { startReceiver, type WebhookReceiver } from '../../helpers/conformance/webhook-receiver';
import { testDatabaseUri } from '../../helpers/test-engine';
import { waitFor } from '../../helpers/webhooks';

const ROOT = join(__dirname, '..', '..', '..');

interface Child {
  readonly child: ChildProcess;
  readonly base: string;
  readonly exited: Promise<unknown>;
}

/** examples/blog in a child process on `store` (DATA_FILE or ENGINE_URI), with a webhook to the receiver. */
async function startChild(store: Record<string, string>, receiver: WebhookReceiver): Promise<Child> {
  // The call of an attempt may hang for a minute: the lease of 300 ms is what lets a restarted instance take over.
  const settings = { timeoutMS: 60_000, leaseMS: 300, pollMS: 20, concurrency: 4 };
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '__tests__/helpers/webhook-child.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', ...store, WEBHOOK_URL: receiver.url, WEBHOOK_SETTINGS: JSON.stringify(settings) },
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

const auth = (): Record<string, string> => ({ 'content-type': 'application/json', authorization: `Bearer ${blogTokens().fullToken}` });

/** Creates a category; its documentId once the write is acknowledged (a 201). */
async function createCategory(base: string, name: string): Promise<string> {
  const res = await fetch(`${base}/api/categories`, { method: 'POST', headers: auth(), body: JSON.stringify({ data: { name } }) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { documentId: string } }).data.documentId;
}

/** The documentIds of every stored category. */
async function storedCategories(base: string): Promise<Set<string>> {
  const res = await fetch(`${base}/api/categories?fields[0]=name&pagination[pageSize]=100`, { headers: auth() });
  expect(res.status).toBe(200);
  return new Set(((await res.json()) as { data: { documentId: string }[] }).data.map((c) => c.documentId));
}

/**
 * The outbox across a SIGKILL: a first instance acknowledges six writes, its calls hang at the receiver, six more
 * writes are in flight, and it is killed. A second instance on the same store must then deliver an event for every
 * category stored (every acknowledged one included) and for no other, the calls cut short with their delivery id.
 * This fails if the outbox were not written in the write's transaction: a kill between the commit of a category
 * and a separate outbox write would leave a stored category with no event (and an outbox row written before a
 * write that never committed would deliver an event for a category that is not stored). It also fails if
 * deliveries were queued in the process (they die with it) rather than in the store.
 */
function crashSuite(store: () => Record<string, string>): void {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('delivers after a restart an event for every stored write (each acknowledged one), with the same delivery ids', async () => {
    const where = store();
    receiver.answer(() => 'hang'); // the first instance's calls never get an answer
    const first = await startChild(where, receiver);
    let second: Child | undefined;
    try {
      const acknowledged: string[] = [];
      for (const name of ['one', 'two', 'three', 'four', 'five', 'six']) acknowledged.push(await createCategory(first.base, name));
      // Some calls are in flight (2 at most: half of `concurrency` per webhook), the others wait in the outbox.
      await waitFor(() => receiver.calls.length >= 1);
      // Six more writes, killed as soon as one is acknowledged: the others are cut short somewhere in their write.
      const inFlight = ['seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'].map((name) =>
        fetch(`${first.base}/api/categories`, { method: 'POST', headers: auth(), body: JSON.stringify({ data: { name } }) }),
      );
      await Promise.race(inFlight).catch(() => undefined);
      first.child.kill('SIGKILL');
      await first.exited;
      for (const answer of await Promise.allSettled(inFlight)) {
        if (answer.status === 'fulfilled' && answer.value.status === 201) acknowledged.push(((await answer.value.json()) as { data: { documentId: string } }).data.documentId);
      }
      const before = receiver.calls.map((c) => String(c.headers['webhook-id']));
      expect(before.length).toBeLessThan(acknowledged.length);

      receiver.answer(() => 200);
      second = await startChild(where, receiver);
      const stored = await storedCategories(second.base);
      for (const id of acknowledged) expect(stored).toContain(id);
      const delivered = (): string[] => receiver.calls.slice(before.length).map((c) => (c.body as { entry: { documentId: string } }).entry.documentId);
      // A stored category without an event keeps this waiting until the test's timeout: that is the failure.
      await waitFor(() => [...stored].every((id) => delivered().includes(id)));
      expect(new Set(delivered())).toEqual(stored);
      // The calls cut short by the crash are sent again with the delivery id they had: receivers drop duplicates by it.
      const after = receiver.calls.slice(before.length).map((c) => String(c.headers['webhook-id']));
      expect(after.filter((id) => before.includes(id)).sort()).toEqual([...before].sort());
      expect(receiver.calls.slice(before.length).every((c) => c.headers['x-strapi-event'] === 'entry.create')).toBe(true);
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
      await first.exited;
      if (second) {
        second.child.kill('SIGTERM');
        await second.exited;
      }
    }
  }, 150_000);
}

describe('the outbox across a crash (embedded engine, SIGKILL)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cr-outbox-crash-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  // One data file: the restarted instance reads the journal the killed one wrote (a torn last record, a write cut
  // short, is dropped: it was never acknowledged).
  crashSuite(() => ({ DATA_FILE: join(dir, 'content.db') }));
});

if (process.env.MONGODB_URI && process.env.MONGODB_TRANSACTIONS !== '0') {
  describe('the outbox across a crash (MongoDB, SIGKILL)', () => {
    // A database of this file's own, dropped after it. A write's transaction is all or nothing: "When a transaction
    // commits, all data changes made in the transaction are saved and visible outside the transaction ... Until a
    // transaction commits, the data changes made in the transaction are not visible outside the transaction"
    // (https://www.mongodb.com/docs/manual/reference/command/commitTransaction/#atomicity). A transaction the killed
    // child left open is never committed: expired transactions are aborted after transactionLifetimeLimitSeconds
    // (60 s by default, https://www.mongodb.com/docs/manual/reference/parameters/#mongodb-parameter-param.transactionLifetimeLimitSeconds);
    // until then the DDL of the second child's start-up (its index builds) may wait behind it, hence the timeout.
    crashSuite(() => ({ ENGINE_URI: testDatabaseUri() }));
  });
} else {
  describe.skip('the outbox across a crash (MongoDB, SIGKILL) (skipped: set MONGODB_URI=mongodb://host:27017/test?replicaSet=rs0 to run it; a standalone server, MONGODB_TRANSACTIONS=0, has no transactions to test)', () => {
    it('needs a MongoDB replica set', () => undefined);
  });
}
