import { UPLOAD_FILE_UID, type ContentType, type Registry } from '../../schema';
import { entryError, jsonlStage, readArchive, readJsonLines, type ArchiveEntry, type ArchiveReadOptions } from '../archive-reader';
import { TransferError } from '../transfer-error';
import { throwIfInterrupted } from '../interrupt';
import { checkJsonValue, type TransferLimits } from '../transfer-limits';
import type { TransferProgress } from '../progress';
import { entityToRow, type RowContext } from './entity-row';
import { addProblem, createPlan, ownerKey, increment, MAX_PROBLEMS, type ImportPlan } from './import-plan';
import { isStrapiSystemType, planLink } from './plan-link';
import { checkPlan } from './check-plan';
import { movesUsers, PERMISSION_UID, ROLE_UID } from '../permission-type';
import { planPermission } from './plan-grants';
import { planFolder } from './plan-folders';
import { FOLDER_UID } from '../media-folders';

interface Entity {
  type: string;
  id: number;
  data: Record<string, unknown>;
}

const isEntity = (v: unknown): v is Entity => {
  const e = v as Entity | null;
  return typeof e?.type === 'string' && Number.isSafeInteger(e.id) && typeof e.data === 'object' && e.data !== null;
};

/** The scan's row context: component ids recorded (a component id twice is a problem), no links yet. */
function scanContext(registry: Registry, plan: ImportPlan): RowContext {
  return {
    registry,
    componentId(uid, sourceId) {
      let ids = plan.components.get(uid);
      if (!ids) plan.components.set(uid, (ids = new Set()));
      if (ids.has(sourceId)) throw new Error(`component ${uid} id ${sourceId} appears twice`);
      ids.add(sourceId);
      return sourceId;
    },
    fillLinks() {},
  };
}

/** A storage key and extension that cannot leave the uploads folder (the local provider's rule, lib/media). */
const SAFE_HASH = /^[A-Za-z0-9_-]{1,255}$/;
const SAFE_EXT = /^(\.[A-Za-z0-9]{1,16})?$/;
/** A format's name (Strapi's breakpoints: thumbnail, small, medium, large, and the project's own). */
const FORMAT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The stored objects a file row names (its original and formats), to match them with assets/uploads. A hash or an
 * extension that could name a path outside the uploads folder, a format that is no object, and two rows (or
 * formats) naming one object are refused.
 */
function recordFile(plan: ImportPlan, id: number, row: Record<string, unknown>): void {
  const add = (object: unknown, format: string | null) => {
    const field = `${UPLOAD_FILE_UID} id ${id}, field ${format ? `formats.${format}.` : ''}`;
    if (typeof object !== 'object' || object === null || Array.isArray(object)) throw new Error(`${field.slice(0, -1)}: expected an object`);
    const { hash, ext = '', mime, url } = object as Record<string, unknown>;
    if (typeof hash !== 'string' || hash === '') throw new Error(`${field}hash: missing`);
    if (!SAFE_HASH.test(hash)) throw new Error(`${field}hash: ${JSON.stringify(hash.slice(0, 60))} is not a storage key (letters, digits, _ and - only)`);
    if (typeof ext !== 'string' || !SAFE_EXT.test(ext)) throw new Error(`${field}ext: ${JSON.stringify(String(ext).slice(0, 60))} is not a file extension`);
    const name = `${hash}${ext}`;
    const other = plan.objects.get(name);
    if (other) throw new Error(`${field}hash: the file ${name} is also ${UPLOAD_FILE_UID} id ${other.fileId}${other.format ? `'s format ${other.format}` : ''}`);
    const text = (v: unknown) => (typeof v === 'string' ? v : '');
    plan.objects.set(name, { fileId: id, format, hash, ext, mime: text(mime), url: text(url), provider: format ? null : text(row.provider) });
  };
  add(row, null);
  const formats = row.formats;
  if (formats === null || formats === undefined) return;
  if (typeof formats !== 'object' || Array.isArray(formats)) throw new Error(`${UPLOAD_FILE_UID} id ${id}, field formats: expected an object`);
  for (const [key, f] of Object.entries(formats)) {
    if (!FORMAT_NAME.test(key)) throw new Error(`${UPLOAD_FILE_UID} id ${id}, field formats: ${JSON.stringify(key.slice(0, 60))} is not a format name`);
    add(f, key);
  }
}

/** A media file's entry: one per name, no larger than `maxAssetBytes` (its tar header says how large before any byte is read). */
function checkAsset(plan: ImportPlan, entry: ArchiveEntry, limits: Required<TransferLimits>): void {
  const name = entry.name.slice('assets/uploads/'.length);
  if (name.includes('/') || name === '') throw new TransferError(`${entry.name}: not a file of assets/uploads (a folder in its name); nothing was imported`);
  if (plan.assets.has(name)) throw new TransferError(`${entry.name}: the archive holds it twice; nothing was imported`);
  if (entry.size > limits.maxAssetBytes) throw new TransferError(`${entry.name}: ${entry.size} bytes, over the ${limits.maxAssetBytes}-byte limit (maxAssetBytes); nothing was imported`);
}

/** `metadata.json`, read whole but no larger than `maxLineBytes`, and parsed: its value (a JSON object). */
export async function readMetadata(entry: ArchiveEntry, limits: Required<TransferLimits>): Promise<unknown> {
  if (entry.size > limits.maxLineBytes) throw new TransferError(`${entry.name}: ${entry.size} bytes, over the ${limits.maxLineBytes}-byte limit (maxLineBytes); nothing was imported`);
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of entry.stream) {
      bytes += (chunk as Buffer).length;
      if (bytes > limits.maxLineBytes) throw new TransferError(`${entry.name}: over the ${limits.maxLineBytes}-byte limit (maxLineBytes); nothing was imported`);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    throw entryError(entry, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new TransferError(`${entry.name}: not JSON; nothing was imported`);
  }
  const problem = typeof value === 'object' && value !== null && !Array.isArray(value) ? checkJsonValue(value, limits.maxDepth) : 'not a JSON object';
  if (problem) throw new TransferError(`${entry.name}: ${problem}; nothing was imported`);
  return value;
}

/** What the scan is told: leave out the versions in locales the model does not configure (default: refuse them). */
export interface ScanOptions extends ArchiveReadOptions {
  readonly unconfiguredLocales?: 'error' | 'skip';
  readonly limits: Required<TransferLimits>;
  readonly signal?: AbortSignal;
}

/** Leaves out a version in an unconfigured locale, with its components (so that their links go too). */
function leaveOut(plan: ImportPlan, registry: Registry, ct: ContentType, entity: Entity): void {
  plan.left.add(ownerKey(ct.uid, entity.id));
  const ctx: RowContext = { registry, componentId: (uid, id) => (plan.left.add(ownerKey(uid, id)), id), fillLinks() {} };
  try {
    entityToRow(ctx, ct, entity.id, { ...entity.data, locale: registry.i18n.defaultLocale });
  } catch {
    // left out anyway
  }
  increment(plan.skipped, `versions in unconfigured locales (${String(entity.data.locale)})`);
}

function planEntity(plan: ImportPlan, registry: Registry, ctx: RowContext, value: unknown, line: number, seen: Set<string>, options: ScanOptions): 'keep' | void {
  if (!isEntity(value)) return addProblem(plan, `entities line ${line}: not a Strapi entity ({ type, id, data })`);
  if (value.type === PERMISSION_UID && movesUsers(registry)) return planPermission(plan, value.id, value.data);
  const ct = registry.contentTypes.get(value.type);
  if (!ct) {
    if (isStrapiSystemType(value.type) && !registry.components.has(value.type)) {
      if (value.type === FOLDER_UID) planFolder(plan, value.id);
      return 'keep';
    }
    return addProblem(plan, `entity ${value.type} id ${value.id}: the type is not in the model (its content types: ${[...registry.contentTypes.keys()].filter((u) => u !== UPLOAD_FILE_UID).join(', ')})`);
  }
  let rows = plan.rows.get(ct.uid);
  if (!rows) plan.rows.set(ct.uid, (rows = new Map()));
  if (rows.has(value.id)) return addProblem(plan, `entity ${ct.uid} id ${value.id}: the id appears twice`);
  if (options.unconfiguredLocales === 'skip' && ct.localized && !registry.i18n.locales.includes(value.data.locale as string)) return leaveOut(plan, registry, ct, value);
  try {
    const row = entityToRow(ctx, ct, value.id, value.data);
    const version = `${ct.uid}\u0000${String(row.documentId)}\u0000${String(row.locale)}\u0000${String(row._status)}`;
    if (seen.has(version)) throw new Error(`entity ${ct.uid} id ${value.id}: a second ${String(row._status)} version of document ${String(row.documentId)}${row.locale ? ` in locale ${String(row.locale)}` : ''}`);
    seen.add(version);
    rows.set(value.id, { documentId: row.documentId as string, locale: row.locale as string | null, status: row._status as 'draft' | 'published' });
    if (ct.uid === UPLOAD_FILE_UID) recordFile(plan, value.id, row);
    if (ct.uid === ROLE_UID && typeof row.type === 'string') plan.roleTypes.add(row.type);
  } catch (error) {
    plan.failed.add(ownerKey(ct.uid, value.id));
    addProblem(plan, (error as Error).message);
  }
}

/**
 * The first pass of an import: reads the whole export once, checks every entity and link against the model
 * (collecting the problems, each naming the entity and the field) and builds the plan the second pass writes
 * from. Writes nothing.
 *
 * @example
 * const plan = await scanExport(registry, 'export.tar');
 * if (plan.problems.length) throw ...
 */
export async function scanExport(registry: Registry, file: string, options: ScanOptions, progress: TransferProgress): Promise<ImportPlan> {
  const plan = createPlan();
  const ctx = scanContext(registry, plan);
  const seen = new Set<string>();
  let links = 0;
  const { limits } = options;
  for await (const entry of readArchive(file, options)) {
    throwIfInterrupted(options.signal);
    const stage = jsonlStage(entry.name);
    if (entry.name.startsWith('assets/uploads/')) {
      checkAsset(plan, entry, limits);
      plan.assets.add(entry.name.slice('assets/uploads/'.length));
      progress.tick('scan', entry.size);
    } else if (stage === 'entities' || stage === 'links') {
      for await (const { line, value, text } of readJsonLines(entry, limits)) {
        plan.lineBytes += text.length;
        if (line % 1000 === 0) throwIfInterrupted(options.signal);
        const kept = stage === 'entities' ? planEntity(plan, registry, ctx, value, line, seen, options) : planLink(plan, registry, value, ++links);
        if (kept) increment(plan.kept, `${stage} of ${(value as { type?: string; left?: { type: string } }).type ?? (value as { left: { type: string } }).left.type}`);
        progress.tick('scan', 0);
        if (plan.problems.length >= MAX_PROBLEMS) return plan;
      }
    } else if (stage === 'schemas' || stage === 'configuration') {
      for await (const { text } of readJsonLines(entry, limits)) {
        plan.lineBytes += text.length;
        increment(plan.kept, stage);
      }
    } else if (entry.name === 'metadata.json') {
      await readMetadata(entry, limits);
    }
  }
  plan.linkCount = links;
  checkPlan(plan, registry);
  return plan;
}
