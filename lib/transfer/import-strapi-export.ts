import path from 'node:path';
import { DuplicateKeyError, type Engine } from '../engine';
import { uniqueIndexAttribute } from '../engine/indexes';
import type { StorageProvider } from '../media';
import type { Registry } from '../schema';
import { allocateIds, type IdRange } from './import/allocate-ids';
import type { ImportPlan } from './import/import-plan';
import { scanExport } from './import/scan-export';
import { singleTypeClaims, writeExport } from './import/write-export';
import { beginImport, endImport, importToken, markCommitting, mayBeRunning, readMarker, refuseRunning, rollBackRows, startHeartbeat, type ImportMarker } from './import/import-marker';
import { discardStagedFiles, moveStagedFiles, recordedUploads, stagedLocalUploads, stagingFolder } from './import/staged-uploads';
import { throwIfInterrupted } from './interrupt';
import { KEPT_COLLECTION } from './kept-lines';
import { TransferProgress, type OnTransferProgress } from './progress';
import { openTarget, uploadProvider, type TransferTarget, type UploadsOption } from './transfer-target';
import { TransferError } from './transfer-error';
import { resolveLimits, type TransferLimits } from './transfer-limits';
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
  /** What the import reads at most (a longer line, a larger file, a deeper value is refused): see {@link TransferLimits}. */
  readonly limits?: TransferLimits;
  /** Stops the import between two rows or files (the command: SIGINT, SIGTERM); it then rolls back. */
  readonly signal?: AbortSignal;
}

export interface ImportResult {
  /** Rows written per content type uid (every version: draft/published, every locale). */
  readonly rows: Readonly<Record<string, number>>;
  /** Files stored in the uploads (originals and formats). */
  readonly assets: number;
  /** Lines of the export kept aside for a later export (Strapi's own types, schemas, configuration), by kind. */
  readonly kept: Readonly<Record<string, number>>;
  /** What was not stored, by reason: Strapi's `localizations` links, creator fields, versions left out. */
  readonly skipped: Readonly<Record<string, number>>;
  /** What was done first with an earlier import that had not finished (a crash, kill -9): rolled back. */
  readonly recovered?: string;
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

/** Removes an import's rows, files and marker: after a failure now, or after a crash (its marker left in the store). */
async function rollBack(engine: Engine, marker: ImportMarker, provider: StorageProvider | undefined): Promise<void> {
  await rollBackRows(engine, marker);
  await discardStagedFiles(engine, marker, provider);
  await endImport(engine, marker);
}

/**
 * An import that did not finish (its marker is in the store, its process gone): rolled back, or completed when it
 * had passed its commit point (every row written, its files moving in). One still running is refused.
 */
async function recoverEarlier(engine: Engine, provider: StorageProvider | undefined): Promise<string | undefined> {
  const marker = await readMarker(engine);
  if (!marker) return undefined;
  if (mayBeRunning(marker)) refuseRunning(marker);
  const what = `an earlier import of ${marker.file} (started ${marker.startedAt}) that did not finish`;
  if (marker.state === 'committing') {
    await moveStagedFiles(marker);
    await endImport(engine, marker);
    return `${what} had written everything: it was completed`;
  }
  await rollBack(engine, marker, provider);
  return `${what} was rolled back`;
}

/** A write error said in the export's terms: a duplicate unique value names the type and the attribute. */
function explain(error: unknown, registry: Registry): unknown {
  if (!(error instanceof DuplicateKeyError)) return error;
  const ct = [...registry.contentTypes.values()].find((c) => c.collectionName === error.collection);
  const attribute = uniqueIndexAttribute(error.index);
  const what = attribute ? `two rows share a value of the unique attribute ${attribute} in one locale and status` : `two rows clash on the index ${error.index}`;
  return new TransferError(`${ct?.uid ?? error.collection}: ${what}; nothing was imported`, [error.message]);
}

function refuseProblems(file: string, plan: ImportPlan): void {
  if (!plan.problems.length) return;
  const shown = plan.problems.slice(0, 10).map((p) => `  - ${p}`).join('\n');
  const more = plan.problems.length > 10 ? `\n  ... and ${plan.problems.length - 10} more` : '';
  const hint = plan.problems.some((p) => p.includes('is not a configured locale')) ? "\n(configure those locales, or leave their versions out: unconfiguredLocales: 'skip', --skip-unconfigured-locales)" : '';
  throw new TransferError(`${file} does not fit the model; nothing was imported:\n${shown}${more}${hint}`, plan.problems);
}

/** The store is empty; said with what was recovered first, when something was. */
async function checkEmptyAfter(engine: Engine, registry: Registry, recovered: string | undefined): Promise<void> {
  try {
    await checkEmpty(engine, registry);
  } catch (error) {
    if (recovered && error instanceof TransferError) throw new TransferError(`${recovered}; ${error.message}`, error.problems);
    throw error;
  }
}

/**
 * Imports an export written by `strapi export` (`.tar`, `.tar.gz`, with `key` a `.enc`) into an empty store:
 * every document version (draft/published, every locale) with its documentId and timestamps, components and
 * dynamic zones in order, relations in order, media files with their formats and links. Two passes over the file:
 * the first checks everything against the model and writes nothing (a {@link TransferError} lists the problems,
 * each naming the entity and field; a line, value or file over its limit, a link or a `__proto__` key in the
 * archive stops it at once); the second writes. The import is all or nothing: its marker records what it is
 * writing, so that a failure (or `signal`) takes everything back, and an import stopped by a crash or kill -9 is
 * taken back by the next import. With `auth.users` (the model has the users-permissions types), users move with
 * their bcrypt hashes unchanged, and roles with their grants (Strapi's permission rows) replace the stored roles of
 * the same types; without it they are kept aside like Strapi's other own types (locales, folders), schemas and
 * configuration, and written back by {@link exportStrapiExport}. See docs/transfer.md.
 *
 * @example
 * await importStrapiExport(router, 'export.tar.gz', { uploads: { directory: './public/uploads' } });
 */
export async function importStrapiExport(target: TransferTarget, file: string, options: ImportOptions = {}): Promise<ImportResult> {
  const limits = resolveLimits(options.limits);
  const { registry, engine } = await openTarget(target);
  const provider = uploadProvider(options.uploads);
  const custom = options.uploads?.provider;
  const recovered = await recoverEarlier(engine, custom);
  await checkEmptyAfter(engine, registry, recovered);
  const progress = new TransferProgress(options.onProgress);
  const plan = await scanExport(registry, file, { key: options.key, unconfiguredLocales: options.unconfiguredLocales, limits, signal: options.signal }, progress);
  progress.end();
  refuseProblems(file, plan);
  throwIfInterrupted(options.signal);
  const ranges: IdRange[] = [];
  const ids = await allocateIds(engine, registry, plan, ranges);
  const token = importToken();
  const directory = custom ? null : path.resolve(options.uploads!.directory!);
  const marker = await beginImport(engine, { token, file, ranges, claims: singleTypeClaims(registry, plan), staging: directory && stagingFolder(directory, token), uploads: directory });
  const stopHeartbeat = startHeartbeat(engine, marker);
  try {
    const uploads = directory ? stagedLocalUploads(directory, marker) : recordedUploads(engine, provider, marker);
    const write = async () => {
      await writeExport({ registry, engine, uploads, plan, ids, marker, progress, limits, signal: options.signal }, file, { key: options.key });
      await markCommitting(engine, marker);
    };
    // One transaction where the engine takes it (the memory engine): no row is seen before the commit point. A
    // provider's objects are recorded in the marker before they are stored, which a transaction would take back.
    const oneTransaction = directory !== null && engine.bulkTransactionBytes !== undefined && plan.lineBytes <= engine.bulkTransactionBytes;
    try {
      await (oneTransaction ? engine.transaction(write) : write());
      progress.end();
    } catch (error) {
      await rollBack(engine, marker, custom).catch((undoError: unknown) => {
        throw new TransferError(`${(error as Error).message}; taking the import back failed too (${(undoError as Error).message}): the next import takes it back`);
      });
      throw explain(error, registry);
    }
    await moveStagedFiles(marker);
    await endImport(engine, marker);
  } finally {
    stopHeartbeat();
  }
  const rows = Object.fromEntries([...plan.rows].map(([uid, r]) => [uid, r.size]));
  const assets = [...plan.objects.keys()].filter((name) => plan.assets.has(name)).length;
  return { rows, assets, kept: Object.fromEntries(plan.kept), skipped: Object.fromEntries(plan.skipped), ...(recovered ? { recovered } : {}) };
}
