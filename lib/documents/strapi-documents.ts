import { ValidationError } from '../errors';
import type { RestLimits } from '../query';
import type { Query } from '../query/types';
import type { ContentType, Registry } from '../schema';
import type { Documents, DocumentWriteOptions } from './document-service';
import { isParamsObject, paramsToQuery } from './document-params';
import type { FindManyResult } from './read-documents';
import type { ContentDocument, DocumentQueryParams, WriteData } from './typed-params';

type Row = Record<string, unknown>;

export type { ContentDocument };

/** The `data` of a create or update when there is no generated input type: any object (validated at run time). */
export type DocumentInput = Record<string, unknown>;

/** `create()`'s parameters (Strapi 5): the data, and the locale, status, fields and populate of the answer. */
export interface DocumentCreateParams<D = ContentDocument, I = DocumentInput> extends Pick<DocumentQueryParams<D>, 'fields' | 'populate' | 'locale' | 'status'> {
  data: I;
}
/** `update()`'s parameters (Strapi 5). */
export interface DocumentUpdateParams<D = ContentDocument, I = DocumentInput> extends DocumentCreateParams<D, I> {
  documentId: string;
}
/** `findOne()`'s parameters (Strapi 5). */
export interface DocumentFindOneParams<D = ContentDocument> extends DocumentQueryParams<D> {
  documentId: string;
}
/** `delete()`, `publish()`, `unpublish()`, `discardDraft()` parameters: `locale: '*'` for every locale. */
export interface DocumentTargetParams<D = ContentDocument> extends Pick<DocumentQueryParams<D>, 'fields' | 'populate'> {
  documentId: string;
  locale?: string;
}
/** What `delete()`, `publish()`, `unpublish()` and `discardDraft()` answer (Strapi 5). */
export interface DocumentVersions<D = ContentDocument> {
  documentId: string;
  /** The versions (one per locale and status) deleted, published, unpublished or created from the published ones. */
  entries: D[];
}

/**
 * Strapi 5's Document Service for one content type (`strapi.documents(uid)`), as `router.documents(uid)` gives it:
 * parameter objects with Strapi's defaults (the draft, the default locale, no page limit), the same validation
 * and error messages as the REST query. The REST query-string forms are kept: `findMany('populate=*')` answers
 * `{ data, pagination }` with the REST defaults (published, 25 a page), `findOne(documentId, query)`,
 * `create(data, options)`, `update(documentId, data, options)`, `delete(documentId, options)`, ...
 *
 * `D` is the document type and `I` what `data` accepts: with the generated types (docs/types.md) both come from
 * the model and every parameter is checked (`filters`, `fields`, `populate` and `sort` keys, `data`'s attributes
 * and values); with `ContentDocument` (no generated types) the parameters are untyped and `data` is anything.
 * A raw query string is a `string` either way: the parsers check it at run time.
 */
export interface DocumentService<D = ContentDocument, I = DocumentInput> {
  readonly contentType: ContentType;
  findMany(params?: DocumentQueryParams<D>): Promise<D[]>;
  findMany(query: string | Query): Promise<Omit<FindManyResult, 'data'> & { data: D[] }>;
  findFirst(params?: DocumentQueryParams<D>): Promise<D | null>;
  findFirst(query: string | Query): Promise<D | null>;
  findOne(params: DocumentFindOneParams<D>): Promise<D | null>;
  findOne(documentId: string, query?: string | Query): Promise<D | null>;
  count(params?: Pick<DocumentQueryParams<D>, 'filters' | 'locale' | 'status'>): Promise<number>;
  create(params: DocumentCreateParams<D, I>): Promise<D>;
  create(data: WriteData<D, I>, options?: DocumentWriteOptions): Promise<D>;
  update(params: DocumentUpdateParams<D, I>): Promise<D | null>;
  update(documentId: string, data: WriteData<D, I>, options?: DocumentWriteOptions): Promise<D | null>;
  delete(params: DocumentTargetParams<D>): Promise<DocumentVersions<D>>;
  delete(documentId: string, options?: { locale?: string | '*' }): Promise<number>;
  publish(params: DocumentTargetParams<D>): Promise<DocumentVersions<D>>;
  publish(documentId: string, options?: { locale?: string }): Promise<D | null>;
  unpublish(params: DocumentTargetParams<D>): Promise<DocumentVersions<D>>;
  unpublish(documentId: string, options?: { locale?: string }): Promise<number>;
  discardDraft(params: DocumentTargetParams<D>): Promise<DocumentVersions<D>>;
  discardDraft(documentId: string, options?: { locale?: string }): Promise<D | null>;
  /** The documentId of some stored document, in any locale and status (a single type has at most one). */
  anyDocumentId(): Promise<string | undefined>;
  /** A single type's `PUT` (REST form): updates its document in the locale (creating it) or creates the document. */
  upsertSingle(data: WriteData<D, I>, options?: DocumentWriteOptions): Promise<D>;
  /** A single type's `DELETE` (REST form): how many rows were deleted. */
  deleteSingle(options?: { locale?: string }): Promise<number>;
}

interface ServiceContext {
  registry: Registry;
  rest: RestLimits;
  docs: Documents;
}

function without(params: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) if (!keys.includes(key)) out[key] = value;
  return out;
}

function documentIdOf(params: Record<string, unknown>, method: string): string {
  const id = params.documentId;
  if (typeof id !== 'string' || id === '') throw new ValidationError(`${method}() needs a documentId (a string)`, { key: 'documentId' });
  return id;
}

/** The Strapi form of create: one plain object argument with a `data` object. */
function isCreateParams(args: unknown[]): args is [DocumentCreateParams] {
  return args.length === 1 && isParamsObject(args[0]) && isParamsObject(args[0].data);
}

/**
 * Wraps the document service of one content type with Strapi 5's parameter objects (see {@link DocumentService}).
 *
 * @example
 * const articles = strapiDocuments({ registry, rest, docs: service('api::article.article') });
 * await articles.findMany({ filters: { title: { $containsi: 'hello' } }, populate: ['author'], status: 'published' });
 */
export function strapiDocuments(sc: ServiceContext): DocumentService {
  const { docs } = sc;
  const ct = docs.contentType;
  const pc = { registry: sc.registry, ct, rest: sc.rest };
  const read = (params: unknown, action: 'find' | 'findOne'): Query => paramsToQuery(pc, params, action);
  const listAll = (q: Query): Query => ({ ...q, pagination: { ...q.pagination, withCount: false } });
  const versions = async (documentId: string, locale: string | undefined, statuses: ('draft' | 'published')[]): Promise<Row[]> => {
    const rows: Row[] = [];
    for (const status of statuses) {
      const q = read({ filters: { documentId: { $eq: documentId } }, locale, status }, 'find');
      rows.push(...(await docs.findMany(listAll(q))).data);
    }
    return rows;
  };
  const bothStatuses = (): ('draft' | 'published')[] => (ct.draftAndPublish ? ['draft', 'published'] : ['published']);
  const localesOf = (locale: string | undefined): (string | undefined)[] => (ct.localized && locale === '*' ? [...sc.registry.i18n.locales] : [locale]);
  const requireDraftAndPublish = (method: string): void => {
    if (!ct.draftAndPublish) throw new ValidationError(`${method}() needs draft & publish: ${ct.uid} does not have it`);
  };
  /** publish / discardDraft of the object form: the action in each locale it names, the rows it returned. */
  const eachLocale = async (arg: unknown, method: string, run: (documentId: string, locale: string | undefined) => Promise<Row | null>) => {
    const { documentId, locale } = target(arg, method);
    requireDraftAndPublish(method);
    const entries: Row[] = [];
    for (const loc of localesOf(locale)) {
      const row = await run(documentId, loc);
      if (row) entries.push(row);
    }
    return { documentId, entries };
  };
  const write = (params: Record<string, unknown>): DocumentWriteOptions => {
    const query = paramsToQuery(pc, without(params, 'data', 'documentId'), 'write');
    const status = params.status === 'published' ? 'published' : 'draft';
    return { status, locale: typeof params.locale === 'string' ? params.locale : undefined, query };
  };

  const service = {
    contentType: ct,
    async findMany(params?: unknown) {
      if (typeof params === 'string' || isParsedQuery(params)) return docs.findMany(params);
      return (await docs.findMany(listAll(read(params, 'find')))).data;
    },
    async findFirst(params?: unknown) {
      if (typeof params === 'string' || isParsedQuery(params)) return docs.findFirst(params);
      return docs.findFirst(read(params, 'findOne'));
    },
    async findOne(arg: unknown, query?: string | Query) {
      if (typeof arg === 'string') return docs.findOne(arg, query);
      const params = isParamsObject(arg) ? arg : {};
      const documentId = documentIdOf(params, 'findOne');
      const q = read(without(params, 'documentId'), 'findOne');
      return q.locale === '*' ? null : docs.findOne(documentId, q);
    },
    async count(params?: unknown) {
      const q = read(isParamsObject(params) ? { filters: params.filters, locale: params.locale, status: params.status } : params, 'find');
      const result = await docs.findMany({ ...q, pagination: { kind: 'page', page: 1, pageSize: 1, withCount: true } });
      return 'total' in result.pagination ? (result.pagination.total ?? 0) : 0;
    },
    async create(...args: unknown[]) {
      if (!isCreateParams(args)) return docs.create(args[0], args[1] as DocumentWriteOptions | undefined);
      return docs.create(args[0].data, write(args[0] as unknown as Record<string, unknown>));
    },
    async update(arg: unknown, data?: unknown, options?: DocumentWriteOptions) {
      if (typeof arg === 'string') return docs.update(arg, data, options);
      const params = isParamsObject(arg) ? arg : {};
      const documentId = documentIdOf(params, 'update');
      if (!isParamsObject(params.data)) throw new ValidationError('update() needs data (an object)', { key: 'data' });
      return docs.update(documentId, params.data, write(params));
    },
    async delete(arg: unknown, options?: { locale?: string | '*' }) {
      if (typeof arg === 'string') return docs.delete(arg, options);
      const { documentId, locale } = target(arg, 'delete');
      const entries = await versions(documentId, locale, bothStatuses());
      await docs.delete(documentId, { locale });
      return { documentId, entries };
    },
    async publish(arg: unknown, options?: { locale?: string }) {
      if (typeof arg === 'string') return docs.publish(arg, options);
      return eachLocale(arg, 'publish', (documentId, locale) => docs.publish(documentId, { locale }));
    },
    async unpublish(arg: unknown, options?: { locale?: string }) {
      if (typeof arg === 'string') return docs.unpublish(arg, options);
      const { documentId, locale } = target(arg, 'unpublish');
      requireDraftAndPublish('unpublish');
      const entries = await versions(documentId, locale, ['published']);
      for (const loc of localesOf(locale)) await docs.unpublish(documentId, { locale: loc });
      return { documentId, entries };
    },
    async discardDraft(arg: unknown, options?: { locale?: string }) {
      if (typeof arg === 'string') return docs.discardDraft(arg, options);
      return eachLocale(arg, 'discardDraft', (documentId, locale) => docs.discardDraft(documentId, { locale }));
    },
    anyDocumentId: () => docs.anyDocumentId(),
    upsertSingle: (data: unknown, options?: DocumentWriteOptions) => docs.upsertSingle(data, options),
    deleteSingle: (options?: { locale?: string }) => docs.deleteSingle(options),
  };
  return service as DocumentService;
}

/** A parsed Query (the internal form, kept for the REST controllers and older callers). */
function isParsedQuery(value: unknown): value is Query {
  return isParamsObject(value) && isParamsObject(value.pagination) && typeof value.pagination.kind === 'string';
}

function target(arg: unknown, method: string): { documentId: string; locale: string | undefined } {
  const params = isParamsObject(arg) ? arg : {};
  const documentId = documentIdOf(params, method);
  const { locale } = params;
  if (locale !== undefined && locale !== null && typeof locale !== 'string') throw new ValidationError(`${method}(): locale must be a string`, { key: 'locale' });
  return { documentId, locale: locale ?? undefined };
}

/**
 * `router.documents(uid)`: the Document Service of each content type (one per uid, made on first use). An unknown
 * or internal uid throws an Error naming the content types there are.
 *
 * @example
 * const documents = documentServices(registry, rest, createDocumentService({ registry, engine, rest }));
 * await documents('api::article.article').findMany({ status: 'published' });
 */
export function documentServices(registry: Registry, rest: RestLimits, service: (uid: string) => Documents): (uid: string) => DocumentService {
  const made = new Map<string, DocumentService>();
  return (uid) => {
    let found = made.get(uid);
    if (found) return found;
    const ct = typeof uid === 'string' ? registry.contentTypes.get(uid) : undefined;
    if (!ct || ct.internal) {
      const known = [...registry.contentTypes.values()].filter((t) => !t.internal).map((t) => t.uid);
      throw new Error(`documents(${JSON.stringify(uid)}): unknown content type; the content types are ${known.join(', ')}`);
    }
    made.set(uid, (found = strapiDocuments({ registry, rest, docs: service(uid) })));
    return found;
  };
}
