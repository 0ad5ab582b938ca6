import { v7 as uuidv7 } from 'uuid';
import type { Ability } from '../auth/types';
import { OPEN_ABILITY } from '../auth/types';
import type { Engine, Filter } from '../engine';
import { parseQuery, type RestLimits } from '../query';
import type { Query } from '../query/types';
import type { ContentType, Registry } from '../schema';
import { createBodyValidator, type BodyValidator } from '../schema/validate-body';
import { deleteDocument, discardDraft, unpublishDocument } from './delete-document';
import type { DocumentEvents, LifecycleHooks } from './lifecycle-hooks';
import { findMany, findOne, findStoredOne, type FindManyResult, type StoredDocument } from './read-documents';
import { singleDocumentId, writeSingleType } from './single-type';
import { createDocument, publishDraft, updateDocument, type WriteContext } from './write-documents';

type Row = Record<string, unknown>;

export interface DocumentServiceOptions {
  registry: Registry;
  engine: Engine;
  rest: RestLimits;
  clock?: () => Date;
  documentId?: () => string;
  lifecycles?: LifecycleHooks;
  /** Where writes are announced as Strapi's events (webhooks, `router.on`). */
  events?: DocumentEvents;
}

/** Options of a write: the status and locale written, and the query (fields/populate) of the returned document. */
export interface DocumentWriteOptions {
  status?: 'draft' | 'published';
  locale?: string;
  /** A raw query string or a parsed Query for the returned document. */
  query?: string | Query;
}

/**
 * Strapi's Document Service for one content type: what the REST controllers call, usable by the host app.
 * Reads accept a parsed `Query` or a raw query string (`'populate=*&filters[title][$eq]=x'`).
 */
export interface Documents {
  readonly contentType: ContentType;
  findMany(query?: string | Query): Promise<FindManyResult>;
  findOne(documentId: string, query?: string | Query): Promise<Row | null>;
  /** The document of a single type (or the first of a collection type) in the query's locale and status. */
  findFirst(query?: string | Query): Promise<Row | null>;
  /**
   * @internal {@link findOne} (a documentId) or {@link findFirst} (none) before formatting: the stored row and the
   * read that gave it, written straight to the response by the HTTP routes (http/send's sendOne).
   */
  findStored(documentId: string | undefined, query: Query): Promise<StoredDocument | null>;
  /** The documentId of some stored document, in any locale and status (a single type has at most one). */
  anyDocumentId(): Promise<string | undefined>;
  /**
   * A single type's `PUT`: updates its document in the given locale (creating that localization) or creates the
   * document. The database guarantees one document per single type, whatever the number of app instances.
   */
  upsertSingle(data: unknown, options?: DocumentWriteOptions): Promise<Row>;
  /** A single type's `DELETE`: deletes its document in the given locale (if it has one); returns the rows deleted. */
  deleteSingle(options?: { locale?: string }): Promise<number>;
  create(data: unknown, options?: DocumentWriteOptions): Promise<Row>;
  /** null when the document does not exist. */
  update(documentId: string, data: unknown, options?: DocumentWriteOptions): Promise<Row | null>;
  delete(documentId: string, options?: { locale?: string | '*' }): Promise<number>;
  publish(documentId: string, options?: { locale?: string }): Promise<Row | null>;
  unpublish(documentId: string, options?: { locale?: string }): Promise<number>;
  discardDraft(documentId: string, options?: { locale?: string }): Promise<Row | null>;
}

/**
 * Creates the document service of every content type.
 *
 * @example
 * const articles = service('api::article.article');
 * await articles.create({ title: 'Hello' }, { status: 'draft' });
 */
export function createDocumentService(options: DocumentServiceOptions): (uid: string, ability?: Ability) => Documents {
  const validators = new Map<string, BodyValidator>();
  for (const ct of options.registry.contentTypes.values()) {
    if (!ct.internal) validators.set(ct.uid, createBodyValidator(options.registry, ct));
  }
  return (uid, ability = OPEN_ABILITY) => {
    const ct = options.registry.contentType(uid);
    const validator = validators.get(uid);
    if (!validator) throw new Error(`${uid} has no document service`);
    return documentsFor(options, ct, validator, ability);
  };
}

function documentsFor(options: DocumentServiceOptions, ct: ContentType, validator: BodyValidator, ability: Ability): Documents {
  const { registry, engine } = options;
  const ctx: WriteContext = {
    registry,
    engine,
    ct,
    validator,
    clock: options.clock ?? (() => new Date()),
    newDocumentId: options.documentId ?? (() => uuidv7()),
    hooks: options.lifecycles ?? {},
    ...(options.events ? { events: options.events } : {}),
    // A request's caller: its body's relations to types it cannot find are dropped (Strapi's input sanitizer).
    ...(ability === OPEN_ABILITY ? {} : { canFind: (uid: string) => ability.canFind(uid) }),
  };
  const parse = (q: string | Query | undefined, action: 'find' | 'findOne' | 'write'): Query =>
    typeof q === 'object' ? q : parseQuery({ registry, contentType: ct, rawQuery: q ?? '', context: ability, rest: options.rest, action });
  const locale = (l: string | undefined): string | null => (ct.localized ? (l ?? registry.i18n.defaultLocale) : null);
  const readBack = (documentId: string, status: 'draft' | 'published', loc: string | null, q?: string | Query): Promise<Row | null> => {
    const query = { ...parse(q, 'write'), status: ct.draftAndPublish ? status : 'published', locale: loc ?? undefined } as Query;
    return findOne(registry, engine, ct, query, { documentId } as Filter);
  };
  const writeStatus = (s: DocumentWriteOptions['status']): 'draft' | 'published' => (s === 'draft' ? 'draft' : 'published');

  return {
    contentType: ct,
    // async: a bad query string rejects the returned promise instead of throwing synchronously.
    findMany: async (q) => findMany(registry, engine, ct, parse(q, 'find')),
    findOne: async (documentId, q) => findOne(registry, engine, ct, parse(q, 'findOne'), { documentId }),
    findFirst: async (q) => findOne(registry, engine, ct, parse(q, 'findOne'), {}),
    findStored: (documentId, q) => findStoredOne(registry, engine, ct, q, documentId === undefined ? {} : { documentId }),
    anyDocumentId: () => singleDocumentId(ctx),
    async upsertSingle(data, o = {}) {
      const status = writeStatus(o.status);
      const documentId = await writeSingleType(ctx, data, { status, locale: locale(o.locale) });
      return (await readBack(documentId, status, locale(o.locale), o.query))!;
    },
    async deleteSingle(o = {}) {
      const documentId = await singleDocumentId(ctx);
      return documentId === undefined ? 0 : deleteDocument(ctx, documentId, locale(o.locale));
    },
    async create(data, o = {}) {
      const status = writeStatus(o.status);
      const documentId = await createDocument(ctx, data, { status, locale: locale(o.locale) });
      return (await readBack(documentId, status, locale(o.locale), o.query))!;
    },
    async update(documentId, data, o = {}) {
      const status = writeStatus(o.status);
      const found = await updateDocument(ctx, documentId, data, { status, locale: locale(o.locale) });
      return found ? readBack(documentId, status, locale(o.locale), o.query) : null;
    },
    delete: (documentId, o = {}) => deleteDocument(ctx, documentId, o.locale === '*' ? '*' : locale(o.locale)),
    async publish(documentId, o = {}) {
      const loc = locale(o.locale);
      if (!ct.draftAndPublish) return null;
      const published = await publishDraft(ctx, documentId, loc);
      return published ? readBack(documentId, 'published', loc) : null;
    },
    unpublish: (documentId, o = {}) => unpublishDocument(ctx, documentId, locale(o.locale)),
    async discardDraft(documentId, o = {}) {
      const ok = await discardDraft(ctx, documentId, locale(o.locale));
      return ok ? readBack(documentId, 'draft', locale(o.locale)) : null;
    },
  };
}
