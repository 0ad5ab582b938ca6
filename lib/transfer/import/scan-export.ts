import { UPLOAD_FILE_UID, type ContentType, type Registry } from '../../schema';
import { jsonlStage, readArchive, readJsonLines, type ArchiveReadOptions } from '../archive-reader';
import type { TransferProgress } from '../progress';
import { entityToRow, type RowContext } from './entity-row';
import { addProblem, createPlan, ownerKey, increment, MAX_PROBLEMS, type ImportPlan } from './import-plan';
import { isStrapiSystemType, planLink } from './plan-link';
import { checkPlan } from './check-plan';
import { movesUsers, PERMISSION_UID, ROLE_UID } from '../permission-type';
import { planPermission } from './plan-grants';

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

/** The stored objects a file row names (its original and formats), to match them with assets/uploads. */
function recordFile(plan: ImportPlan, id: number, row: Record<string, unknown>): void {
  const add = (object: Record<string, unknown>, format: string | null) => {
    if (typeof object.hash !== 'string' || object.hash === '') throw new Error(`${UPLOAD_FILE_UID} id ${id}, field ${format ? `formats.${format}.` : ''}hash: missing`);
    const ext = typeof object.ext === 'string' ? object.ext : '';
    const text = (v: unknown) => (typeof v === 'string' ? v : '');
    plan.objects.set(`${object.hash}${ext}`, { fileId: id, format, hash: object.hash, ext, mime: text(object.mime), url: text(object.url), provider: format ? null : text(row.provider) });
  };
  add(row, null);
  const formats = row.formats;
  if (formats && typeof formats === 'object') {
    for (const [key, f] of Object.entries(formats as Record<string, Record<string, unknown>>)) add(f, key);
  }
}

/** What the scan is told: leave out the versions in locales the model does not configure (default: refuse them). */
export interface ScanOptions extends ArchiveReadOptions {
  readonly unconfiguredLocales?: 'error' | 'skip';
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
    if (isStrapiSystemType(value.type) && !registry.components.has(value.type)) return 'keep';
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
  for await (const entry of readArchive(file, options)) {
    const stage = jsonlStage(entry.name);
    if (entry.name.startsWith('assets/uploads/')) {
      plan.assets.add(entry.name.slice('assets/uploads/'.length));
      progress.tick('scan', entry.size);
    } else if (stage === 'entities' || stage === 'links') {
      for await (const { line, value } of readJsonLines(entry)) {
        const kept = stage === 'entities' ? planEntity(plan, registry, ctx, value, line, seen, options) : planLink(plan, registry, value, ++links);
        if (kept) increment(plan.kept, `${stage} of ${(value as { type?: string; left?: { type: string } }).type ?? (value as { left: { type: string } }).left.type}`);
        progress.tick('scan', 0);
        if (plan.problems.length >= MAX_PROBLEMS) return plan;
      }
    } else if (stage === 'schemas' || stage === 'configuration') {
      for await (const _ of readJsonLines(entry)) increment(plan.kept, stage);
    }
  }
  plan.linkCount = links;
  checkPlan(plan, registry);
  return plan;
}
