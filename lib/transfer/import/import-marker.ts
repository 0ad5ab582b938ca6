import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Engine, Row } from '../../engine';
import { SINGLE_TYPES_COLLECTION } from '../../engine/indexes';
import { KEPT_COLLECTION } from '../kept-lines';
import { TransferError } from '../transfer-error';
import type { IdRange } from './allocate-ids';
import type { ReplacedRows } from './replace-roles';

/**
 * Where an import records what it is writing, before it writes it: one marker row (`_id: 'import'`), and, when the
 * files go to a storage provider, one row per object stored (`_id: 'object:<hash><ext>'`). The marker is there
 * for the whole write pass and goes when the import is complete, so a store that holds one holds an import that
 * did not finish (a crash, kill -9, a lost connection): the next import rolls it back from what the marker says
 * (or, past its commit point, completes it). docs/transfer.md ("All or nothing").
 */
export const IMPORT_COLLECTION = '_strapi_import';

const MARKER_ID = 'import';
/** A marker whose heartbeat is older than this is taken as dead, whoever wrote it. */
export const STALE_AFTER_MS = 5 * 60 * 1000;
const HEARTBEAT_MS = 30 * 1000;

/** The marker row. `state` is `writing` until every row is written, then `committing` while the files move in. */
export interface ImportMarker {
  readonly _id: typeof MARKER_ID;
  readonly token: string;
  readonly state: 'writing' | 'committing';
  readonly file: string;
  readonly owner: { readonly host: string; readonly pid: number };
  readonly startedAt: string;
  readonly heartbeat: string;
  /** The id blocks taken: the rows written with them are what a rollback deletes. */
  readonly ranges: readonly IdRange[];
  /** The single types whose `_single_types` claim the import writes. */
  readonly claims: readonly string[];
  /** Stored rows the import removed (the roles it replaces), recorded before they are removed. */
  readonly replaced: readonly ReplacedRows[];
  /** The folder the files are written to before they move into `uploads` (the local uploads folder), or null. */
  readonly staging: string | null;
  readonly uploads: string | null;
}

/** An object stored through a provider by an import, recorded before it is stored. */
export interface ObjectRecord {
  readonly hash: string;
  readonly ext: string;
  readonly url: string;
  readonly provider_metadata?: unknown;
}

/** A new import's token (its marker, its staging folder). */
export const importToken = (): string => randomUUID();

/** The imports running in this process (by token): a marker of this process that is not among them is dead. */
const running = new Set<string>();

/** Creates the marker of an import about to write (its ranges and claims known). */
export async function beginImport(engine: Engine, init: Pick<ImportMarker, 'token' | 'file' | 'ranges' | 'claims' | 'staging' | 'uploads'>): Promise<ImportMarker> {
  const now = new Date().toISOString();
  const marker: ImportMarker = { _id: MARKER_ID, state: 'writing', owner: { host: hostname(), pid: process.pid }, startedAt: now, heartbeat: now, replaced: [], ...init };
  running.add(marker.token);
  await engine.insertMany(IMPORT_COLLECTION, [marker as unknown as Row]);
  return marker;
}

/** Keeps the marker's heartbeat fresh while the import runs (another process takes a silent marker as dead). */
export function startHeartbeat(engine: Engine, marker: ImportMarker): () => void {
  const timer = setInterval(() => {
    engine.updateMany(IMPORT_COLLECTION, { _id: MARKER_ID, token: marker.token }, { $set: { heartbeat: new Date().toISOString() } }).catch(() => undefined);
  }, HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}

export async function recordReplaced(engine: Engine, marker: ImportMarker, replaced: ReplacedRows): Promise<void> {
  await engine.updateMany(IMPORT_COLLECTION, { _id: MARKER_ID, token: marker.token }, { $push: { replaced } });
}

export async function recordObject(engine: Engine, marker: ImportMarker, object: ObjectRecord): Promise<void> {
  await engine.insertMany(IMPORT_COLLECTION, [{ _id: `object:${object.hash}${object.ext}`, token: marker.token, ...object }]);
}

/** What the provider answered for an object recorded before it was stored (its url and metadata, for a delete). */
export async function recordStoredObject(engine: Engine, marker: ImportMarker, object: ObjectRecord): Promise<void> {
  await engine.replaceOne(IMPORT_COLLECTION, { _id: `object:${object.hash}${object.ext}` }, { token: marker.token, ...object });
}

/** The commit point: every row is written; from here on the import is completed, never rolled back. */
export async function markCommitting(engine: Engine, marker: ImportMarker): Promise<void> {
  await engine.updateMany(IMPORT_COLLECTION, { _id: MARKER_ID, token: marker.token }, { $set: { state: 'committing' } });
}

/** The end of an import (completed, or rolled back): the marker and its object rows go. */
export async function endImport(engine: Engine, marker: ImportMarker): Promise<void> {
  await engine.deleteMany(IMPORT_COLLECTION, {});
  running.delete(marker.token);
}

export async function readMarker(engine: Engine): Promise<ImportMarker | undefined> {
  const [row] = await engine.find(IMPORT_COLLECTION, { _id: MARKER_ID });
  return row as unknown as ImportMarker | undefined;
}

export async function recordedObjects(engine: Engine): Promise<ObjectRecord[]> {
  return (await engine.find(IMPORT_COLLECTION, { _id: { $ne: MARKER_ID } })) as unknown as ObjectRecord[];
}

/** Whether the process that wrote `marker` may still be writing: this process's running imports, a live process of this host, or a fresh heartbeat. */
export function mayBeRunning(marker: ImportMarker, now = Date.now()): boolean {
  if (now - Date.parse(marker.heartbeat) > STALE_AFTER_MS) return false;
  if (marker.owner.host !== hostname()) return true;
  if (marker.owner.pid === process.pid) return running.has(marker.token);
  try {
    process.kill(marker.owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Refuses an import while another one writes into the store. */
export function refuseRunning(marker: ImportMarker): never {
  throw new TransferError(
    `an import of ${marker.file} into this store is running (process ${marker.owner.pid} on ${marker.owner.host}, since ${marker.startedAt}): ` +
      `wait for it to end; a marker whose process is gone (or silent for ${STALE_AFTER_MS / 60000} minutes) is rolled back by the next import`,
  );
}

/**
 * Takes back the rows of an import from its marker: the rows of its id blocks, the kept lines and the claims it
 * wrote (the store held none: an import starts from an empty store), and puts the rows it replaced back. Every
 * step can run again (a rollback interrupted in turn is finished by the next one).
 */
export async function rollBackRows(engine: Engine, marker: ImportMarker): Promise<void> {
  for (const range of marker.ranges) {
    if (range.rows) await engine.deleteMany(range.collection, { id: { $gte: range.first, $lte: range.last } });
  }
  for (const { collection, rows } of marker.replaced) {
    const present = new Set((await engine.find(collection, { _id: { $in: rows.map((r) => r._id) } }, { projection: { _id: 1 } })).map((r) => String(r._id)));
    const missing = rows.filter((r) => !present.has(String(r._id)));
    if (missing.length) await engine.insertMany(collection, missing);
  }
  for (const uid of marker.claims) await engine.deleteMany(SINGLE_TYPES_COLLECTION, { _id: uid });
  await engine.deleteMany(KEPT_COLLECTION, {});
}

/**
 * What the router says at start-up when its store holds an import that did not finish (undefined when none): on
 * MongoDB (and for a large import on the embedded engine) part of its rows are in the store until the next import
 * rolls them back.
 *
 * @example
 * const warning = await unfinishedImportWarning(engine); if (warning) logger.warn(warning);
 */
export async function unfinishedImportWarning(engine: Engine): Promise<string | undefined> {
  const marker = await readMarker(engine);
  if (!marker) return undefined;
  return (
    `content-router: the store holds an import of ${marker.file} that did not finish (started ${marker.startedAt} by process ` +
    `${marker.owner.pid} on ${marker.owner.host}): part of it may be served; run the import again (content-router import), ` +
    'which rolls it back first (docs/transfer.md, "All or nothing")'
  );
}
