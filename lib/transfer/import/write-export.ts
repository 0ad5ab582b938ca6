import type { Engine } from '../../engine';
import { SINGLE_TYPES_COLLECTION } from '../../engine/indexes';
import { INVERSE_ORDER_FIELD, UPLOAD_FILE_UID, type Attributes, type Registry } from '../../schema';
import { jsonlStage, readArchive, readJsonLines, type ArchiveEntry, type ArchiveReadOptions } from '../archive-reader';
import type { TransferProgress } from '../progress';
import { KEPT_COLLECTION } from '../kept-lines';
import type { TransferLimits } from '../transfer-limits';
import type { IdMap } from './allocate-ids';
import { entityToRow, type RowContext } from './entity-row';
import { ownerKey, type ImportPlan, type OwnedLink } from './import-plan';
import { recordReplaced, type ImportMarker } from './import-marker';
import { isKeptLink } from './plan-link';
import { movesUsers, PERMISSION_UID, ROLE_UID } from '../permission-type';
import { replaceRoles } from './replace-roles';
import { readMetadata } from './scan-export';
import type { StagedUploads } from './staged-uploads';
import { TransferError } from '../transfer-error';
import { throwIfInterrupted } from '../interrupt';
import { FILE_FOLDER_FIELD } from '../media-folders';
import { importedInverseOrder, rankInversePositions } from './inverse-positions';

type Row = Record<string, unknown>;

export interface WriteContext {
  readonly registry: Registry;
  readonly engine: Engine;
  readonly uploads: StagedUploads;
  readonly plan: ImportPlan;
  readonly ids: { rows: IdMap; components: IdMap };
  readonly marker: ImportMarker;
  readonly progress: TransferProgress;
  readonly limits: Required<TransferLimits>;
  /** Stops the write between two rows or files (a signal): the import then rolls back. */
  readonly signal?: AbortSignal;
}

const BATCH = 500;
const byPosition = (a: OwnedLink, b: OwnedLink): number => (a.pos ?? Infinity) - (b.pos ?? Infinity) || a.seq - b.seq;

/** The row context of the write: stored component ids, relations as documentIds and media as file ids, in order. */
function writeRowContext(ctx: WriteContext): RowContext {
  const { plan, ids, registry } = ctx;
  const inverseRanks = rankInversePositions(plan);
  return {
    registry,
    componentId: (uid, sourceId) => ids.components.get(uid)!.get(sourceId)!,
    fillLinks(type: string, sourceId: number, attributes: Attributes, out: Row) {
      for (const [field, links] of plan.links.get(ownerKey(type, sourceId)) ?? []) {
        const a = attributes[field]!;
        const sorted = [...links].sort(byPosition);
        const values =
          a.kind === 'media'
            ? sorted.map((l) => ids.rows.get(UPLOAD_FILE_UID)!.get(l.ref)!)
            : [...new Set(sorted.map((l) => plan.rows.get(l.type)!.get(l.ref)!.documentId))];
        const many = a.kind === 'media' ? a.multiple : a.kind === 'relation' && a.toMany;
        out[field] = many ? values : (values[0] ?? null);
        const order = importedInverseOrder(registry, a, sorted.map((l) => ({ documentId: plan.rows.get(l.type)?.get(l.ref)?.documentId, pos: inverseRanks.get(l) ?? null })));
        if (order !== undefined) out[INVERSE_ORDER_FIELD] = { ...(out[INVERSE_ORDER_FIELD] as Row | undefined), [field]: order };
      }
    },
  };
}

/** Rows waiting to be inserted, by collection, written BATCH at a time. */
function createBatches(engine: Engine) {
  const pending = new Map<string, Row[]>();
  const flush = async (collection: string) => {
    const rows = pending.get(collection);
    if (rows?.length) {
      pending.set(collection, []);
      await engine.insertMany(collection, rows);
    }
  };
  return {
    async add(collection: string, row: Row) {
      const rows = pending.get(collection) ?? [];
      pending.set(collection, rows);
      rows.push(row);
      if (rows.length >= BATCH) await flush(collection);
    },
    async flushAll() {
      for (const collection of pending.keys()) await flush(collection);
    },
  };
}

/** Stores one file of assets/uploads (staged: see staged-uploads); the file row's url follows what the provider answers. */
async function storeAsset(ctx: WriteContext, entry: ArchiveEntry, name: string): Promise<void> {
  const object = ctx.plan.objects.get(name);
  if (!object) return; // a file no row names: Strapi's import stores it nowhere either
  const { hash, ext } = object;
  const { provider } = ctx.uploads;
  const upload = { hash, ext, mime: object.mime, sizeInBytes: entry.size, stream: entry.stream };
  const { url, provider_metadata } = await provider.upload(upload).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EEXIST' ? new TransferError(`the uploads folder already holds ${name}: import into an empty uploads folder`) : error;
  });
  const id = ctx.ids.rows.get(UPLOAD_FILE_UID)!.get(object.fileId)!;
  const path = object.format ? `formats.${object.format}.` : '';
  const set: Row = {};
  if (url !== object.url) set[`${path}url`] = url;
  if (!object.format && (object.provider !== provider.name || provider_metadata !== undefined)) {
    set.provider = provider.name;
    set.provider_metadata = provider_metadata ?? null;
  }
  if (Object.keys(set).length) await ctx.engine.updateMany('files', { id }, { $set: set });
  ctx.progress.tick('assets', entry.size);
}

/**
 * The second pass of an import: reads the export again and writes it through the engine: rows in batches (ids
 * from the blocks taken, relations and media from the plan's links), files through the staged uploads, the
 * lines kept aside (as they came), then the single types' claims. The marker says beforehand what a rollback
 * takes back (the id blocks, the claims, the roles replaced).
 */
export async function writeExport(ctx: WriteContext, file: string, options: ArchiveReadOptions): Promise<void> {
  const { registry, engine, plan, limits, signal } = ctx;
  const rowContext = writeRowContext(ctx);
  const batches = createBatches(engine);
  let kept = 0;
  const keep = (stage: string, line: string) => batches.add(KEPT_COLLECTION, { seq: ++kept, stage, line });
  const users = movesUsers(registry);
  await replaceRoles(engine, registry, plan, (replaced) => recordReplaced(engine, ctx.marker, replaced));
  for await (const entry of readArchive(file, options)) {
    throwIfInterrupted(signal);
    const stage = jsonlStage(entry.name);
    if (entry.name.startsWith('assets/uploads/')) {
      await batches.flushAll();
      await storeAsset(ctx, entry, entry.name.slice('assets/uploads/'.length));
    } else if (entry.name === 'metadata.json') {
      await keep('metadata', JSON.stringify(await readMetadata(entry, limits)));
    } else if (stage) {
      for await (const { value, text } of readJsonLines(entry, limits)) {
        throwIfInterrupted(signal);
        if (stage === 'entities') {
          const { type, id, data } = value as { type: string; id: number; data: unknown };
          const ct = registry.contentTypes.get(type);
          if (!ct) {
            if (!(users && type === PERMISSION_UID)) await keep(stage, text); // permissions: in their role's row
          } else if (plan.left.has(ownerKey(type, id))) continue;
          else {
            const row: Row = { id: ctx.ids.rows.get(type)!.get(id)!, ...entityToRow(rowContext, ct, id, data) };
            if (type === ROLE_UID) row.permissions = plan.roleGrants.get(id) ?? [];
            const folder = type === UPLOAD_FILE_UID ? plan.fileFolders.get(id) : undefined;
            if (folder) row[FILE_FOLDER_FIELD] = { id: folder.id, pos: folder.pos };
            await batches.add(ct.collectionName, row);
            ctx.progress.tick('entities', 0);
          }
        } else if (stage === 'links') {
          if (isKeptLink(registry, value)) await keep(stage, text);
        } else await keep(stage, text);
      }
    }
  }
  await batches.flushAll();
  throwIfInterrupted(signal);
  await claimSingleTypes(ctx);
}

/** The single types an import claims (docs/storage-model.md): those with a document in the export. */
export function singleTypeClaims(registry: Registry, plan: ImportPlan): string[] {
  return [...plan.rows].filter(([uid, rows]) => registry.contentType(uid).kind === 'singleType' && rows.size > 0).map(([uid]) => uid);
}

/** The `_single_types` claim of each imported single type (docs/storage-model.md): what keeps it to one document. */
async function claimSingleTypes(ctx: WriteContext): Promise<void> {
  for (const uid of singleTypeClaims(ctx.registry, ctx.plan)) {
    const [first] = ctx.plan.rows.get(uid)!.values();
    const { documentId } = first!;
    if ((await ctx.engine.updateMany(SINGLE_TYPES_COLLECTION, { _id: uid }, { $set: { documentId } })) === 0) {
      await ctx.engine.insertMany(SINGLE_TYPES_COLLECTION, [{ _id: uid, documentId }]);
    }
  }
}
