import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Engine } from '../engine';
import { localPath } from '../media/local-provider';
import { UPLOAD_FILE_UID, type Registry } from '../schema';
import { createArchiveWriter, type ArchiveWriter } from './archive-writer';
import { entityData } from './export/entity-data';
import { readRows } from './export/read-rows';
import { buildRowIndex } from './export/row-index';
import { inverseRanks } from './export/inverse-ranks';
import { localizationsLink, rowLinks } from './export/row-links';
import { permissionLines } from './export/role-permissions';
import { modelSchemas } from './export/strapi-schemas';
import { usersPermissionsSchemas } from './export/users-permissions-schemas';
import { readKept } from './kept-lines';
import { isUsersPermissionsLine, movesUsers, ROLE_UID } from './permission-type';
import { TransferProgress, type OnTransferProgress } from './progress';
import { openTarget, type TransferTarget } from './transfer-target';
import { TransferError } from './transfer-error';
import { readMarker } from './import/import-marker';

/** The Strapi version an export says it comes from when the store was not imported from one. */
export const STRAPI_VERSION = '5.54.0';

/** One stored object of a file (original or format) to read the bytes of. */
export interface AssetRef {
  readonly hash: string;
  readonly ext: string;
  readonly url: string;
  readonly provider: string;
}

export interface ExportOptions {
  /** gzip the archive (default true, as `strapi export`; `--no-compress` there). */
  readonly gzip?: boolean;
  /** Encrypt with Strapi's encryption key (`strapi import --key` reads it). */
  readonly key?: string;
  /** Where the files' bytes are: the local uploads folder, or `read` for another storage provider. */
  readonly uploads?: { readonly directory?: string; readonly read?: (object: AssetRef) => Promise<{ stream: Readable; size: number }> };
  readonly onProgress?: OnTransferProgress;
  /** Bytes of one JSON-lines file before the next starts (default 16 MiB): bounds the memory of an export. */
  readonly maxJsonlBytes?: number;
}

export interface ExportResult {
  readonly file: string;
  readonly rows: Readonly<Record<string, number>>;
  readonly assets: number;
  readonly links: number;
}

interface Context {
  readonly registry: Registry;
  readonly engine: Engine;
  readonly out: ArchiveWriter;
  readonly options: ExportOptions;
  readonly progress: TransferProgress;
}

async function writeSchemas(ctx: Context): Promise<void> {
  const schemas = ctx.out.jsonl('schemas');
  const generated = modelSchemas(ctx.registry);
  for (const schema of usersPermissionsSchemas(ctx.registry)) generated.set(schema.uid as string, schema);
  for await (const value of readKept(ctx.engine, 'schemas')) {
    generated.delete((value as { uid?: string }).uid ?? '');
    await schemas.write(value);
  }
  for (const schema of generated.values()) await schemas.write(schema);
  await schemas.close();
}

/** Entities (first pass over the rows) or links (second pass): every row of every type of the model, in id order. */
async function writeRows(ctx: Context, stage: 'entities' | 'links', rows: Record<string, number>): Promise<number> {
  const { registry, engine } = ctx;
  const writer = ctx.out.jsonl(stage);
  const index = stage === 'links' ? await buildRowIndex(engine, registry) : undefined;
  const ranks = index ? await inverseRanks(engine, registry, index) : new Map<string, number>();
  let lines = 0;
  for (const ct of registry.contentTypes.values()) {
    for await (const row of readRows(engine, ct.collectionName)) {
      const { data, links } = entityData(registry, ct, row);
      if (ct.uid === ROLE_UID) delete data.permissions; // written as Strapi's permission rows, below
      if (stage === 'entities') {
        await writer.write({ type: ct.uid, id: row.id, data });
        rows[ct.uid] = (rows[ct.uid] ?? 0) + 1;
        lines++;
      } else {
        for (const link of rowLinks(registry, index!, ranks, ct, row, links)) {
          await writer.write(link);
          lines++;
        }
      }
      ctx.progress.tick(stage, 0);
    }
  }
  if (movesUsers(registry)) {
    for await (const line of permissionLines(engine, registry, stage)) {
      await writer.write(line);
      lines++;
    }
  }
  for await (const value of readKept(engine, stage)) {
    await writer.write(value);
    lines++;
  }
  if (stage === 'links') lines += await writeKeptLocalizations(engine, writer);
  if (stage === 'entities' && !(await hasKeptLocales(engine))) lines += await writeLocales(ctx, writer);
  await writer.close();
  return lines;
}

/**
 * Refuses to export the users, roles and grants of the store next to other ones kept aside: an import made
 * without `auth.users` kept Strapi's lines of those types, which are not what this store serves.
 */
async function checkKeptUsers(engine: Engine, registry: Registry): Promise<void> {
  if (!movesUsers(registry)) return;
  let kept = 0;
  for (const stage of ['entities', 'links']) for await (const value of readKept(engine, stage)) if (isUsersPermissionsLine(value)) kept++;
  if (kept === 0) return;
  throw new TransferError(
    `the store holds ${kept} line(s) of Strapi's users, roles and permissions kept aside by an import made without auth.users, besides its own: ` +
      'export without auth.users to write those back, or import the original export again (into an empty store) with auth.users on to move them',
  );
}

/**
 * The `localizations` link of each entity kept aside (media folders, locales, ...): Strapi writes one for every
 * row, an import skips them (docs/transfer.md), so they are written again from the kept entities.
 */
async function writeKeptLocalizations(engine: Engine, writer: ReturnType<ArchiveWriter['jsonl']>): Promise<number> {
  let lines = 0;
  for await (const value of readKept(engine, 'entities')) {
    const { type, id, data } = value as { type?: unknown; id?: unknown; data?: { documentId?: unknown } };
    if (typeof type !== 'string' || typeof data?.documentId !== 'string') continue;
    await writer.write(localizationsLink(type, id, data.documentId));
    lines++;
  }
  return lines;
}

async function hasKeptLocales(engine: Engine): Promise<boolean> {
  for await (const value of readKept(engine, 'entities')) if ((value as { type?: string }).type === 'plugin::i18n.locale') return true;
  return false;
}

/** Strapi's i18n locales from the configured ones, when no import kept Strapi's own. */
async function writeLocales(ctx: Context, writer: ReturnType<ArchiveWriter['jsonl']>): Promise<number> {
  const { i18n } = ctx.registry;
  const at = new Date().toISOString();
  let id = 0;
  for (const code of i18n.locales) {
    id++;
    const data = { documentId: `locale-${code}`, name: i18n.names[code] ?? code, code, createdAt: at, updatedAt: at, publishedAt: at, locale: null };
    await writer.write({ type: 'plugin::i18n.locale', id, data });
  }
  return id;
}

/** The bytes of one stored object: the uploads folder's file (local provider), or the `read` option's stream. */
async function openAsset(ctx: Context, object: AssetRef): Promise<{ stream: Readable; size: number }> {
  const { uploads } = ctx.options;
  if (uploads?.read && (object.provider !== 'local' || !uploads.directory)) return uploads.read(object);
  if (!uploads?.directory) throw new TransferError('uploads: give the uploads folder ({ directory }) to export the media files (or { read } for another provider)');
  const file = localPath(path.resolve(uploads.directory), object);
  const info = await stat(file).catch(() => {
    throw new TransferError(`the file ${object.hash}${object.ext} of a media row is not in the uploads folder ${uploads.directory}`);
  });
  return { stream: createReadStream(file), size: info.size };
}

/** assets/: each file and format with its sidecar in assets/metadata (as Strapi writes them: metadata first). */
async function writeAssets(ctx: Context): Promise<number> {
  let count = 0;
  for await (const row of readRows(ctx.engine, 'files')) {
    const { data } = entityData(ctx.registry, ctx.registry.contentType(UPLOAD_FILE_UID), row);
    const formats = Object.entries((row.formats as Record<string, Record<string, unknown>> | null) ?? {});
    const objects = [
      { meta: { id: row.id, ...data }, hash: row.hash as string, ext: (row.ext as string) ?? '', url: row.url as string },
      ...formats.map(([type, f]) => ({ meta: { ...f, type, id: row.id, mainHash: row.hash }, hash: f.hash as string, ext: (f.ext as string) ?? '', url: f.url as string })),
    ];
    for (const o of objects) {
      const name = `${o.hash}${o.ext}`;
      const { stream, size } = await openAsset(ctx, { hash: o.hash, ext: o.ext, url: o.url, provider: row.provider as string });
      await ctx.out.buffer(`assets/metadata/${name}.json`, JSON.stringify(o.meta));
      await ctx.out.file(`assets/uploads/${name}`, size, stream);
      ctx.progress.tick('assets', size);
      count++;
    }
  }
  return count;
}

async function writeTail(ctx: Context): Promise<void> {
  const configuration = ctx.out.jsonl('configuration');
  let metadata: unknown;
  for await (const value of readKept(ctx.engine, 'configuration')) await configuration.write(value);
  await configuration.close();
  for await (const value of readKept(ctx.engine, 'metadata')) metadata = value;
  const version = (metadata as { strapi?: { version?: string } } | undefined)?.strapi?.version ?? STRAPI_VERSION;
  await ctx.out.buffer('metadata.json', JSON.stringify({ createdAt: new Date().toISOString(), strapi: { version } }, null, 2));
}

/**
 * Writes the store in Strapi's export format (`strapi import` reads it; so does {@link importStrapiExport}):
 * schemas, entities (every row: draft/published, every locale; components inline), assets (each file and format
 * with its sidecar), links (relations in order, media, as Strapi links rows), configuration and metadata.json,
 * plus what an import kept aside. With `auth.users`, users (their hashes included) and roles, with a permission
 * entity per grant of each role, as Strapi writes them. Streamed: rows are read a page at a time, files piped into the archive.
 * A failure removes the partial file. See docs/transfer.md.
 *
 * @example
 * await exportStrapiExport(router, 'export.tar.gz', { uploads: { directory: './public/uploads' } });
 */
export async function exportStrapiExport(target: TransferTarget, file: string, options: ExportOptions = {}): Promise<ExportResult> {
  const { registry, engine } = await openTarget(target);
  const unfinished = await readMarker(engine);
  if (unfinished) {
    throw new TransferError(`the store holds an import of ${unfinished.file} that did not finish (started ${unfinished.startedAt}): run the import again, which rolls it back (or completes it) first`);
  }
  const out = createArchiveWriter(file, { gzip: options.gzip, key: options.key, maxJsonlBytes: options.maxJsonlBytes });
  const progress = new TransferProgress(options.onProgress);
  const ctx: Context = { registry, engine, out, options, progress };
  const rows: Record<string, number> = {};
  try {
    await checkKeptUsers(engine, registry);
    await writeSchemas(ctx);
    await writeRows(ctx, 'entities', rows);
    progress.end();
    const assets = await writeAssets(ctx);
    progress.end();
    const links = await writeRows(ctx, 'links', {});
    progress.end();
    await writeTail(ctx);
    await out.finish();
    return { file, rows, assets, links };
  } catch (error) {
    await out.abort();
    throw error;
  }
}
