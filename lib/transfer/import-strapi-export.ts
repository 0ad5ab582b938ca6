import { DuplicateKeyError, type Engine } from '../engine';
import { uniqueIndexAttribute } from '../engine/indexes';
import type { Registry } from '../schema';
import { allocateIds } from './import/allocate-ids';
import { scanExport } from './import/scan-export';
import { writeExport, type ImportUndo, type WriteContext } from './import/write-export';
import { KEPT_COLLECTION } from './kept-lines';
import { TransferProgress, type OnTransferProgress } from './progress';
import { openTarget, uploadProvider, type TransferTarget, type UploadsOption } from './transfer-target';
import { TransferError } from './transfer-error';
import { SINGLE_TYPES_COLLECTION } from '../engine/indexes';
import { ROLE_UID } from './permission-type';

export interface ImportOptions {
  /** Strapi's encryption key (`strapi export --key`), for a `.enc` export. */
  readonly key?: string;
  /** Where the media files go: `{ directory }` (a local uploads folder) or `{ provider }`. */
  readonly uploads?: UploadsOption;
  /**
   * Versions in a locale the model does not configure (Strapi 5 stores any locale a write names): `'error'`
   * (default) refuses the export naming them; `'skip'` leaves them out (counted in `skipped`), with their links.
   */
  readonly unconfiguredLocales?: 'error' | 'skip';
  /** Called as the import goes (at most every 200 ms, and at the end of each stage). */
  readonly onProgress?: OnTransferProgress;
}

export interface ImportResult {
  /** Rows written per content type uid (every version: draft/published, every locale). */
  readonly rows: Readonly<Record<string, number>>;
  /** Files stored in the uploads (originals and formats). */
  readonly assets: number;
  /** Lines of the export kept aside for a later export (Strapi's own types, schemas, configuration), by kind. */
  readonly kept: Readonly<Record<string, number>>;
  /** What was not stored, by reason: Strapi's `localizations` links, media folders, creator fields, versions left out. */
  readonly skipped: Readonly<Record<string, number>>;
}

/**
 * Refuses a store that already holds rows of the model, or lines kept by an earlier import. Stored roles do not
 * count: a router with `auth.users` seeds them at start-up, and the export's roles replace those of their types.
 */
async function checkEmpty(engine: Engine, registry: Registry): Promise<void> {
  const problems: string[] = [];
  for (const ct of registry.contentTypes.values()) {
    if (ct.uid === ROLE_UID) continue;
    const n = await engine.count(ct.collectionName, {});
    if (n > 0) problems.push(`${ct.uid}: ${n} row(s) in ${ct.collectionName}`);
  }
  if ((await engine.count(KEPT_COLLECTION, {})) > 0) problems.push(`${KEPT_COLLECTION}: the lines of an earlier import`);
  if (problems.length) {
    throw new TransferError(
      `the store is not empty (${problems.join('; ')}): an import writes into an empty store (Strapi's own import deletes everything first); start from a new data file or database`,
      problems,
    );
  }
}

/** Takes back what a failed import wrote: its rows (by the id blocks it took), its files, its claims, its kept lines. */
async function undoImport(engine: Engine, undo: ImportUndo, ctx: { provider: WriteContext['provider'] }): Promise<void> {
  for (const range of undo.ranges) {
    if (range.rows) await engine.deleteMany(range.collection, { id: { $gte: range.first, $lte: range.last } });
  }
  for (const { collection, rows } of undo.replaced) await engine.insertMany(collection, rows);
  for (const uid of undo.claims) await engine.deleteMany(SINGLE_TYPES_COLLECTION, { _id: uid });
  await engine.deleteMany(KEPT_COLLECTION, {});
  for (const object of undo.objects) await ctx.provider.delete(object).catch(() => undefined);
}

/** A write error said in the export's terms: a duplicate unique value names the type and the attribute. */
function explain(error: unknown, registry: Registry): unknown {
  if (!(error instanceof DuplicateKeyError)) return error;
  const ct = [...registry.contentTypes.values()].find((c) => c.collectionName === error.collection);
  const attribute = uniqueIndexAttribute(error.index);
  const what = attribute ? `two rows share a value of the unique attribute ${attribute} in one locale and status` : `two rows clash on the index ${error.index}`;
  return new TransferError(`${ct?.uid ?? error.collection}: ${what}; nothing was imported`, [error.message]);
}

/**
 * Imports an export written by `strapi export` (`.tar`, `.tar.gz`, with `key` a `.enc`) into an empty store:
 * every document version (draft/published, every locale) with its documentId and timestamps, components and
 * dynamic zones in order, relations in order, media files with their formats and links. Two passes over the file:
 * the first checks everything against the model and writes nothing (a {@link TransferError} lists the problems,
 * each naming the entity and field); the second writes. A failure while writing takes back everything written,
 * so the store is left as it was (empty). With `auth.users` (the model has the users-permissions types), users
 * move with their bcrypt hashes unchanged, and roles with their grants (Strapi's permission rows) replace the stored
 * roles of the same types; without it they are kept aside like Strapi's other own types (locales, folders),
 * schemas and configuration, and written back by {@link exportStrapiExport}. See docs/transfer.md.
 *
 * @example
 * await importStrapiExport(router, 'export.tar.gz', { uploads: { directory: './public/uploads' } });
 */
export async function importStrapiExport(target: TransferTarget, file: string, options: ImportOptions = {}): Promise<ImportResult> {
  const { registry, engine } = await openTarget(target);
  const provider = uploadProvider(options.uploads);
  await checkEmpty(engine, registry);
  const progress = new TransferProgress(options.onProgress);
  const plan = await scanExport(registry, file, { key: options.key, unconfiguredLocales: options.unconfiguredLocales }, progress);
  progress.end();
  if (plan.problems.length) {
    const shown = plan.problems.slice(0, 10).map((p) => `  - ${p}`).join('\n');
    const more = plan.problems.length > 10 ? `\n  ... and ${plan.problems.length - 10} more` : '';
    const hint = plan.problems.some((p) => p.includes('is not a configured locale')) ? "\n(configure those locales, or leave their versions out: unconfiguredLocales: 'skip', --skip-unconfigured-locales)" : '';
    throw new TransferError(`${file} does not fit the model; nothing was imported:\n${shown}${more}${hint}`, plan.problems);
  }
  const undo: ImportUndo = { ranges: [], objects: [], claims: [], replaced: [] };
  try {
    const ids = await allocateIds(engine, registry, plan, undo.ranges);
    await writeExport({ registry, engine, provider, plan, ids, undo, progress }, file, { key: options.key });
    progress.end();
  } catch (error) {
    await undoImport(engine, undo, { provider });
    throw explain(error, registry);
  }
  const rows = Object.fromEntries([...plan.rows].map(([uid, r]) => [uid, r.size]));
  return { rows, assets: undo.objects.length, kept: Object.fromEntries(plan.kept), skipped: Object.fromEntries(plan.skipped) };
}
