import { v7 as uuidv7 } from 'uuid';
import type { Ability } from '../auth/types';
import { OPEN_ABILITY } from '../auth/types';
import { deleteDocument } from '../documents/delete-document';
import { findMany, findOne, type FindManyResult } from '../documents/read-documents';
import { inverseList } from '../documents/relations/inverse-list';
import { createDocument, updateDocument, type WriteContext } from '../documents/write-documents';
import type { Engine, Filter } from '../engine';
import { parseQuery, type RestLimits } from '../query';
import type { Query } from '../query/types';
import { createBodyValidator, inverseOrderSide, type ContentType, type Registry } from '../schema';
import { ROLE_UID, USER_UID } from './content-types';

type Row = Record<string, unknown>;

/** Reads and writes the documents of one plugin type (user or role) through the document layer. */
export interface PluginDocuments {
  readonly ct: ContentType;
  /** The raw stored row whose integer `id` is `id` (private attributes included): for the plugin's own checks. */
  rowById(id: number): Promise<Row | undefined>;
  /** The first raw stored row matching `filter`. */
  rowWhere(filter: Filter): Promise<Row | undefined>;
  count(filter: Filter): Promise<number>;
  /** A query string parsed for `ability` (private attributes and types it cannot find refused or left out). */
  query(rawQuery: string, ability: Ability, action: 'find' | 'findOne' | 'write', params?: Record<string, unknown>): Query;
  /** The formatted document (no private attribute) with integer `id`, as `query` selects it; null when absent. */
  findById(id: number, query: Query): Promise<Row | null>;
  findMany(query: Query): Promise<FindManyResult>;
  /** Creates a document from plugin data (validated as a body; passwords already hashed); returns its id. */
  create(data: Row): Promise<number>;
  /** Updates the document of `id`; false when it does not exist. */
  update(documentId: string, data: Row): Promise<boolean>;
  delete(documentId: string): Promise<void>;
  /** Sets `values` on every row matching `filter` (no validation: the plugin's own bookkeeping). */
  setWhere(filter: Filter, values: Row): Promise<number>;
  /**
   * The documentIds linking `target` through the owning relation `field`, in the order its `mappedBy` side keeps
   * (a role's `users`): by position, rows without one first, by id.
   */
  linking(field: string, target: string): Promise<string[]>;
  /** Validates plugin data as a create or update body would be (Strapi's entity validation), without writing. */
  check(data: Row, action: 'create' | 'update'): void;
}

export interface PluginStoreDeps {
  registry: Registry;
  engine: Engine;
  rest: RestLimits;
  documentId?: () => string;
}

/**
 * The documents of the plugin's user and role types, stored like every content type (docs/storage-model.md):
 * writes go through the document layer (validation, unique checks, relations, transactions), reads through the
 * same one-aggregate reads and formatter, so private attributes never leave and populate honours the caller's
 * grants.
 */
export function createPluginStore(deps: PluginStoreDeps): { users: PluginDocuments; roles: PluginDocuments } {
  return { users: pluginDocuments(deps, USER_UID), roles: pluginDocuments(deps, ROLE_UID) };
}

function pluginDocuments(deps: PluginStoreDeps, uid: string): PluginDocuments {
  const { registry, engine, rest } = deps;
  const ct = registry.contentType(uid);
  const validator = createBodyValidator(registry, ct);
  const ctx: WriteContext = {
    registry,
    engine,
    ct,
    validator,
    clock: () => new Date(),
    newDocumentId: deps.documentId ?? (() => uuidv7()),
    hooks: {},
  };
  const collection = ct.collectionName;
  return {
    ct,
    rowById: async (id) => (Number.isSafeInteger(id) ? (await engine.find(collection, { id }, { limit: 1 }))[0] : undefined),
    rowWhere: async (filter) => (await engine.find(collection, filter, { limit: 1, sort: { id: 1 } }))[0],
    count: (filter) => engine.count(collection, filter),
    query: (rawQuery, ability, action, params) => parseQuery({ registry, contentType: ct, rawQuery, ...(params ? { params } : {}), context: ability, rest, action }),
    findById: (id, query) => (Number.isSafeInteger(id) ? findOne(registry, engine, ct, query, { id }) : Promise.resolve(null)),
    findMany: (query) => findMany(registry, engine, ct, query),
    async create(data) {
      const documentId = await createDocument(ctx, data, { status: 'published', locale: null });
      const row = (await engine.find(collection, { documentId }, { limit: 1 }))[0];
      return row!.id as number;
    },
    update: (documentId, data) => updateDocument(ctx, documentId, data, { status: 'published', locale: null }),
    async delete(documentId) {
      await deleteDocument(ctx, documentId, null);
    },
    setWhere: (filter, values) => engine.updateMany(collection, filter, { $set: values }),
    async linking(field, target) {
      const side = inverseOrderSide(registry, ct.attributes[field]);
      if (side) return inverseList(engine, collection, side, target);
      const rows = await engine.find(collection, { [field]: target }, { sort: { id: 1 }, projection: { documentId: 1 } });
      return [...new Set(rows.map((r) => r.documentId as string))];
    },
    check: (data, action) => void validator.validate(data, { action, draft: false }),
  };
}

/** The query of a write's returned document: the caller's `populate` (Strapi returns users with their role). */
export function readQuery(docs: PluginDocuments, ability: Ability | undefined, populate: string): Query {
  return docs.query(populate, ability ?? OPEN_ABILITY, 'findOne');
}
