import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { createContentRouter, type ContentRouter, type Engine } from '../../lib';
import { loadBlogModel } from '../../examples/blog/model';
import { createArchiveWriter } from '../../lib/transfer/archive-writer';
import { jsonlStage, readArchive, readJsonLines } from '../../lib/transfer/archive-reader';
import { testEngine } from '../helpers/test-engine';

/** Strapi 5.54.0's export of the blog data (a copy of ../shared/fixtures/blog/strapi-export.tar). */
export const FIXTURE = path.join(__dirname, '..', '..', 'examples', 'blog', 'model', 'strapi-export.tar');
export const TOKEN = 'transfer-test-full-access-token-0123456789abcdef';
/** The fixture holds articles in `de` (Strapi creates an unknown locale silently: corpus case write.i18n.unknown-locale). */
export const LOCALES = ['en', 'fr', 'de'];

export interface BlogTarget {
  router: ContentRouter;
  app: express.Express;
  engine: Engine;
  uploads: string;
}

/** A fresh temporary folder. */
export const tempDir = (prefix: string): string => fs.mkdtempSync(path.join(os.tmpdir(), `cr-transfer-${prefix}-`));

/** The blog model on a fresh test engine (memory, or MongoDB with MONGODB_URI), an API token, uploads in a temp folder. */
export async function blogTarget(engine: Engine = testEngine()): Promise<BlogTarget> {
  const model = loadBlogModel();
  const uploads = tempDir('uploads');
  const router = createContentRouter({
    contentTypes: model.contentTypes,
    components: model.components,
    engine,
    i18n: { locales: LOCALES, defaultLocale: 'en' },
    auth: { apiTokens: [{ name: 'test', type: 'full-access', accessKey: TOKEN }] },
    upload: { directory: uploads },
    logger: false,
  });
  await router.ready;
  const app = express();
  app.use('/api', router);
  return { router, app, engine, uploads };
}

export interface ExportLines {
  entities: { type: string; id: number; data: Record<string, unknown> }[];
  links: { kind: string; relation: string; left: Record<string, unknown>; right: Record<string, unknown> }[];
  other: Map<string, unknown[]>;
  assets: Map<string, Buffer>;
}

/** Everything an export holds (small exports only: tests). */
export async function readExport(file: string, key?: string): Promise<ExportLines> {
  const out: ExportLines = { entities: [], links: [], other: new Map(), assets: new Map() };
  for await (const entry of readArchive(file, { key })) {
    const stage = jsonlStage(entry.name);
    if (stage) {
      for await (const { value } of readJsonLines(entry)) {
        if (stage === 'entities') out.entities.push(value as ExportLines['entities'][number]);
        else if (stage === 'links') out.links.push(value as ExportLines['links'][number]);
        else out.other.set(stage, [...(out.other.get(stage) ?? []), value]);
      }
    } else if (entry.name.startsWith('assets/uploads/')) {
      const chunks: Buffer[] = [];
      for await (const c of entry.stream) chunks.push(c as Buffer);
      out.assets.set(entry.name.slice('assets/uploads/'.length), Buffer.concat(chunks));
    }
  }
  return out;
}

/**
 * A copy of the fixture with its entity and link lines changed by `edit` (return undefined to drop a line), and
 * `extra` lines added: the export a test needs, written as Strapi writes it (uncompressed).
 */
export async function editedFixture(edit: (stage: string, value: Record<string, unknown>) => Record<string, unknown> | undefined, extra: { stage: string; value: unknown }[] = []): Promise<string> {
  const file = path.join(tempDir('edited'), 'export.tar');
  const out = createArchiveWriter(file, { gzip: false });
  for await (const entry of readArchive(FIXTURE)) {
    const stage = jsonlStage(entry.name);
    if (!stage) {
      await out.file(entry.name, entry.size, entry.stream);
      continue;
    }
    const writer = out.jsonl(stage);
    for await (const { value } of readJsonLines(entry)) {
      const edited = edit(stage, value as Record<string, unknown>);
      if (edited) await writer.write(edited);
    }
    for (const line of extra.filter((e) => e.stage === stage)) await writer.write(line.value);
    await writer.close();
  }
  await out.finish();
  return file;
}

/** How many rows every collection of the model holds (plus the kept lines and claims): all 0 for an empty store. */
export async function rowCounts(target: BlogTarget): Promise<Record<string, number>> {
  const names = [...target.router.registry.contentTypes.values()].map((ct) => ct.collectionName);
  const counts: Record<string, number> = {};
  for (const name of [...names, '_strapi_transfer', '_single_types']) counts[name] = await target.engine.count(name, {});
  return counts;
}
