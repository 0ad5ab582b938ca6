/**
 * A child process for the durable-outbox test: examples/blog on MongoDB at ENGINE_URI (a database of the test's
 * own) or on a memory engine persisted to DATA_FILE, with a webhook to WEBHOOK_URL and the delivery settings of
 * WEBHOOK_SETTINGS (JSON). Prints `listening <port>`.
 * Run with `node -r ts-node/register/transpile-only __tests__/helpers/webhook-child.ts`.
 */
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBlogApp } from '../../examples/blog/app';
import { memoryEngine, mongoEngine, type Engine } from '../../lib';

function childEngine(): Engine {
  const uri = process.env.ENGINE_URI;
  if (uri) return mongoEngine({ uri, transactions: process.env.MONGODB_TRANSACTIONS !== '0' });
  if (!process.env.DATA_FILE) throw new Error('webhook-child: set ENGINE_URI or DATA_FILE');
  return memoryEngine({ file: process.env.DATA_FILE });
}

async function main(): Promise<void> {
  const engine = childEngine();
  const settings = JSON.parse(process.env.WEBHOOK_SETTINGS ?? '{}') as Record<string, number>;
  const { app } = await createBlogApp({ seed: false, engine, uploadsDir: mkdtempSync(join(tmpdir(), 'cr-child-')), webhookUrl: process.env.WEBHOOK_URL, webhookSettings: settings });
  const server = app.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
