import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBlogApp } from '../../examples/blog/app';
import type { ContentRouter, Engine, WebhooksOptions } from '../../lib';
import { blogTokens } from './conformance/start-blog-app';
import { startReceiver, type ReceivedCall, type WebhookReceiver } from './conformance/webhook-receiver';
import { testEngine } from './test-engine';

/** Polls `check` until it is true (no time assertion: the test's own timeout bounds it). */
export async function waitFor(check: () => boolean | Promise<boolean>, everyMS = 10): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, everyMS));
}

/** Until no delivery is pending. */
export async function settled(router: ContentRouter): Promise<void> {
  await waitFor(async () => (await router.webhooks.deliveries({ state: 'pending', limit: 1 })).length === 0);
}

/** The example app with a receiver subscribed to every event, and quick delivery settings. */
export interface WebhookTestApp {
  readonly app: import('express').Express;
  readonly router: ContentRouter;
  readonly receiver: WebhookReceiver;
  readonly token: string;
  /** The calls of one event so far. */
  calls(event: string): ReceivedCall[];
  close(): Promise<void>;
}

/**
 * Starts examples/blog empty with `WEBHOOK_URL` at a fresh receiver (polling every 10 ms, retries after 1 ms).
 *
 * @example
 * const t = await startWebhookApp();
 * await t.router.documents('api::category.category').create({ data: { name: 'x' } });
 */
export async function startWebhookApp(settings: Omit<WebhooksOptions, 'endpoints'> = {}, engine: Engine = testEngine()): Promise<WebhookTestApp> {
  const receiver = await startReceiver();
  const uploadsDir = mkdtempSync(join(tmpdir(), 'cr-webhook-uploads-'));
  const blog = await createBlogApp({ seed: false, uploadsDir, engine, webhookUrl: receiver.url, webhookSettings: { pollMS: 10, backoffMS: 1, ...settings } });
  return {
    app: blog.app,
    router: blog.router,
    receiver,
    token: blogTokens().fullToken,
    calls: (event) => receiver.calls.filter((c) => c.headers['x-strapi-event'] === event),
    async close() {
      await blog.close();
      await receiver.close();
      rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}
