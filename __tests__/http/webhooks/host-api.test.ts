import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBlogApp } from '../../../examples/blog/app';
import { ConfigurationError, createContentRouter, memoryEngine, NotFoundError, ValidationError } from '../../../lib';
import { loadBlogModel } from '../../../examples/blog/model';
import { startReceiver, type WebhookReceiver } from '../../helpers/conformance/webhook-receiver';
import { settled, waitFor } from '../../helpers/webhooks';

let dir: string;
let receiver: WebhookReceiver;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cr-webhook-api-'));
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

/** examples/blog on a data file, without the `webhooks` option (the host API alone). */
function openBlog(file: string) {
  return createBlogApp({ seed: false, uploadsDir: dir, engine: memoryEngine({ file }), webhookUrl: '' });
}

describe('router.webhooks: webhooks added at run time', () => {
  it('are stored: they survive a restart, secrets are never answered', async () => {
    const file = join(dir, 'restart.db');
    const blog = await openBlog(file);
    const created = await blog.router.webhooks.create({ id: 'search', url: receiver.url, events: ['entry.publish'], secret: 'whsec_c2VjcmV0', headers: { Authorization: 'Bearer x' } });
    expect(created).toMatchObject({ id: 'search', name: 'search', url: receiver.url, events: ['entry.publish'], enabled: true, signed: true, source: 'api', headers: { Authorization: 'Bearer x' } });
    expect(created).not.toHaveProperty('secret');
    await blog.router.webhooks.update('search', { enabled: false, name: 'Search index' });
    await blog.close();

    const again = await openBlog(file);
    try {
      expect(await again.router.webhooks.list()).toEqual([expect.objectContaining({ id: 'search', name: 'Search index', enabled: false, signed: true })]);
      await again.router.webhooks.update('search', { enabled: true, secret: null });
      expect(await again.router.webhooks.get('search')).toMatchObject({ enabled: true, signed: false });
      expect(await again.router.webhooks.remove('search')).toBe(true);
      expect(await again.router.webhooks.remove('search')).toBe(false);
      expect(await again.router.webhooks.get('search')).toBeNull();
    } finally {
      await again.close();
    }
  });

  it('deliver once created, and a failed delivery can be retried', async () => {
    const blog = await openBlog(join(dir, 'retry.db'));
    const warnings: string[] = [];
    const warn = jest.spyOn(console, 'warn').mockImplementation((m: string) => void warnings.push(String(m)));
    try {
      receiver.answer(() => 500);
      await blog.router.webhooks.create({ id: 'flaky', url: receiver.url, events: ['entry.create'] });
      await blog.router.documents('api::category.category').create({ data: { name: 'Retried' } });
      await waitFor(async () => (await blog.router.webhooks.deliveries({ webhookId: 'flaky' }))[0]?.lastStatus === 500);
      const [pending] = await blog.router.webhooks.deliveries({ state: 'pending' });
      expect(pending).toMatchObject({ webhookId: 'flaky', event: 'entry.create', attempts: 1, lastError: 'HTTP 500: receiver error' });
      receiver.answer(() => 200);
      expect(await blog.router.webhooks.retry(pending!.id)).toBe(true);
      await settled(blog.router);
      expect(await blog.router.webhooks.deliveries({ webhookId: 'flaky' })).toEqual([expect.objectContaining({ id: pending!.id, state: 'delivered', lastStatus: 200 })]);
      expect(await blog.router.webhooks.retry('no-such-delivery')).toBe(false);
      expect(warnings).toEqual([expect.stringMatching(/^content-router: webhook flaky: entry.create delivery \S+ attempt 1 failed, retried later: HTTP 500: receiver error$/)]);
    } finally {
      warn.mockRestore();
      receiver.answer(() => 200);
      await blog.close();
    }
  });

  it.each([
    [{ id: 'x', url: 'ftp://example.com' }, /webhook.url must match pattern/],
    [{ id: 'x', url: 'https://example.com', events: ['entry.created'] }, /webhook.events\[0\] must be one of "entry.create"/],
    [{ id: 'x', url: 'https://example.com', header: {} }, /webhook.header: unknown key \(did you mean "headers"\?\)/],
    [{ url: 'https://example.com' }, /must have required property 'id'/],
    [{ id: 'x', url: 'https://example.com', headers: { 'Bad Header': 'v' } }, /webhook.headers/],
  ])('refuses a bad definition with a 400 ValidationError: %j', async (definition, message) => {
    const blog = await openBlog(join(dir, 'bad.db'));
    try {
      const attempt = blog.router.webhooks.create(definition as never);
      await expect(attempt).rejects.toBeInstanceOf(ValidationError);
      await expect(attempt).rejects.toThrow(message);
    } finally {
      await blog.close();
    }
  });

  it('answers a 404 NotFoundError for an unknown webhook, a 400 for a used id', async () => {
    const blog = await openBlog(join(dir, 'errors.db'));
    try {
      await expect(blog.router.webhooks.update('nope', { enabled: false })).rejects.toBeInstanceOf(NotFoundError);
      await blog.router.webhooks.create({ id: 'one', url: receiver.url });
      await expect(blog.router.webhooks.create({ id: 'one', url: receiver.url })).rejects.toThrow('A webhook with the id "one" already exists');
    } finally {
      await blog.close();
    }
  });
});

describe('the webhooks option', () => {
  const model = loadBlogModel();
  const base = { contentTypes: model.contentTypes, components: model.components, engine: memoryEngine({ ephemeral: true }) };
  it.each([
    [{ endpoints: [{ id: 'a', url: 'not a url' }] }, 'options.webhooks.endpoints[0].url must match pattern'],
    [{ endpoints: [{ id: 'a', url: 'https://x.example' }, { id: 'a', url: 'https://y.example' }] }, 'the id "a" is used twice'],
    [{ timeoutMs: 5 }, 'options.webhooks.timeoutMs: unknown key (did you mean "timeoutMS"?)'],
    [{ maxAttempts: 0 }, 'options.webhooks.maxAttempts must be >= 1'],
  ])('refuses %j at start-up (CR_INVALID_OPTIONS)', (webhooks, message) => {
    const attempt = () => createContentRouter({ ...base, webhooks } as never);
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(message);
  });

  it('options webhooks are written at start-up; those no longer in the options go', async () => {
    const file = join(dir, 'options.db');
    const start = async (endpoints: { id: string; url: string }[]) => {
      const router = createContentRouter({ ...base, engine: memoryEngine({ file }), webhooks: { endpoints } });
      await router.ready;
      const list = (await router.webhooks.list()).map((h) => `${h.id} ${h.source}`);
      await router.webhooks.stop();
      await router.engine.close();
      return list;
    };
    expect(await start([{ id: 'a', url: receiver.url }, { id: 'b', url: receiver.url }])).toEqual(['a options', 'b options']);
    expect(await start([{ id: 'b', url: receiver.url }])).toEqual(['b options']);
  });
});
