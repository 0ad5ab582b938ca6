import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBlogApp } from '../../examples/blog/app';
import type { ContentRouter } from '../../lib';
import { loadCorpus } from '../helpers/conformance/load';
import { replayCorpus } from '../helpers/conformance/replay-corpus';
import { blogTokens } from '../helpers/conformance/start-blog-app';
import { label, loadRecordedCalls, minus, multiset } from '../helpers/conformance/webhook-calls';
import { startReceiver, type WebhookReceiver } from '../helpers/conformance/webhook-receiver';
import { testEngine } from '../helpers/test-engine';

/** Calls known to differ from Strapi's, each with its reason (an entry that no longer differs fails: the list only shrinks). */
const DIFFERENCES = JSON.parse(readFileSync(join(__dirname, 'webhook-differences.json'), 'utf8')) as {
  missing: Record<string, string>;
  order: Record<string, string>;
};

async function settled(router: ContentRouter): Promise<void> {
  for (;;) {
    if ((await router.webhooks.deliveries({ state: 'pending', limit: 1 })).length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The same call once its arrays of documents are sorted (what an "order" difference may differ by). */
function sortedArrays(key: string): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sort(x)]));
    return v;
  };
  return JSON.stringify(sort(JSON.parse(key)));
}

describe('webhooks: the corpus replayed against examples/blog makes the calls Strapi 5.54.0 made', () => {
  let receiver: WebhookReceiver;
  let ours: Map<string, number>;
  let theirs: Map<string, number>;

  beforeAll(async () => {
    receiver = await startReceiver();
    const uploadsDir = mkdtempSync(join(tmpdir(), 'cr-webhooks-uploads-'));
    const blog = await createBlogApp({ seed: false, uploadsDir, engine: testEngine(), strapiCompat: true, webhookUrl: receiver.url });
    const server = await new Promise<Server>((resolve) => {
      const s = blog.app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const side = await replayCorpus(loadCorpus(), `http://127.0.0.1:${(server.address() as AddressInfo).port}`, blogTokens());
      await settled(blog.router);
      const calls = receiver.calls.map((c) => ({ method: c.method, url: c.url, headers: c.headers as Record<string, unknown>, body: c.body }));
      ours = multiset(calls, side.captures);
      const recorded = loadRecordedCalls();
      theirs = multiset(recorded.calls, recorded.captures);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await blog.close();
      await receiver.close();
      rmSync(uploadsDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('recorded 247 calls to compare with', () => {
    expect([...theirs.values()].reduce((a, b) => a + b, 0)).toBe(247);
  });

  it('makes every call Strapi made, but the listed deliberate differences', () => {
    const missing = minus(theirs, ours).map(label).filter((l) => !(l in DIFFERENCES.order));
    expect(missing.sort()).toEqual(Object.keys(DIFFERENCES.missing).sort());
  });

  it('makes no call Strapi did not make (the listed order differences aside)', () => {
    const extra = minus(ours, theirs).map(label).filter((l) => !(l in DIFFERENCES.order));
    expect(extra).toEqual([]);
  });

  it('differs by the order of related documents only where listed', () => {
    const missing = minus(theirs, ours).filter((k) => label(k) in DIFFERENCES.order);
    const extra = minus(ours, theirs).filter((k) => label(k) in DIFFERENCES.order);
    expect(missing.map(label).sort()).toEqual(Object.keys(DIFFERENCES.order).sort());
    expect(extra.map(sortedArrays).sort()).toEqual(missing.map(sortedArrays).sort());
  });
});
