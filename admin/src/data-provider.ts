// react-admin's data provider over the documented Content API, for any model: a resource is a content type's REST
// route (`/api/<route>`), its records' `id` is the documentId; single types are read and written at `/api/<route>`
// (their record id is `SINGLE`); `files` is the media library (`/upload/files`, `/upload`). Draft & publish types
// are read as drafts when the caller may (as Strapi's admin does) and written with `?status=draft|published`;
// localized types in the app bar's content locale.
import type { DataProvider, GetListParams, RaRecord } from 'react-admin';
import { request } from './api';
import { getContentLocale } from './locale';
import { FILES, TEXT_TYPES, type ContentType, type ModelIndex } from './model';
import { loadModel } from './model-store';
import { listPopulate, populateFor } from './populate';
import { toBody, toForm } from './transform';

/** The record id of a single type's one document. */
export const SINGLE = 'single';

type Json = Record<string, unknown>;
interface ListAnswer {
  data: Json[];
  meta?: { pagination?: { total?: number } };
}

function typeOf(model: ModelIndex, resource: string): ContentType {
  const ct = model.byRoute.get(resource);
  if (!ct) throw new Error(`Unknown resource ${resource}`);
  return ct;
}

/** `status` and `locale` of a request on `ct` (status: the one asked, else the draft when the caller reads drafts). */
function versionQuery(model: ModelIndex, ct: ContentType, status?: unknown, locale?: unknown): Json {
  const query: Json = {};
  if (ct.draftAndPublish) query.status = status === 'published' || status === 'draft' ? status : model.readsDrafts(ct) ? 'draft' : 'published';
  const code = typeof locale === 'string' && locale ? locale : getContentLocale();
  if (ct.localized && code) query.locale = code;
  return query;
}

const asRecord = (model: ModelIndex, ct: ContentType, doc: Json): RaRecord => ({
  ...toForm(model, ct.attributes, doc),
  id: ct.kind === 'singleType' ? SINGLE : (doc.documentId as string),
});

/** The list's filter values as Strapi filters: `q` searches the text attributes, relations match documentIds. */
export function filtersOf(ct: ContentType, filter: Json): Json {
  const and: Json[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === '' || key === 'status' || key === 'locale') continue;
    if (key === 'q') {
      const or = Object.entries(ct.attributes)
        .filter(([, a]) => TEXT_TYPES.has(a.type) && !a.private)
        .map(([name]) => ({ [name]: { $containsi: value } }));
      if (or.length) and.push({ $or: or });
      continue;
    }
    const attribute = ct.attributes[key];
    if (key === 'id' || key === 'documentId') and.push({ documentId: { $in: [value].flat() } });
    else if (!attribute) continue;
    else if (attribute.type === 'relation') and.push({ [key]: { documentId: { $in: [value].flat() } } });
    else if (TEXT_TYPES.has(attribute.type)) and.push({ [key]: { $containsi: value } });
    else and.push({ [key]: { $eq: value } });
  }
  return and.length ? { $and: and } : {};
}

function sortOf(ct: ContentType, sort: GetListParams['sort'] | undefined): string[] | undefined {
  if (!sort?.field) return undefined;
  const field = sort.field === 'id' ? 'documentId' : sort.field;
  if (field !== 'documentId' && !ct.attributes[field] && !['createdAt', 'updatedAt', 'publishedAt'].includes(field)) return undefined;
  return [`${field}:${sort.order === 'DESC' ? 'desc' : 'asc'}`];
}

async function list(resource: string, params: Partial<GetListParams>) {
  const model = await loadModel();
  if (resource === FILES) return listFiles(params);
  const ct = typeOf(model, resource);
  const { page = 1, perPage = 10 } = params.pagination ?? {};
  const filter = (params.filter ?? {}) as Json;
  const answer = await request<ListAnswer>(`/${ct.route}`, {
    query: {
      ...versionQuery(model, ct, filter.status, filter.locale),
      filters: filtersOf(ct, filter),
      sort: sortOf(ct, params.sort),
      pagination: { page, pageSize: perPage },
      populate: listPopulate(ct.attributes),
    },
  });
  return { data: answer.data.map((doc) => asRecord(model, ct, doc)), total: answer.meta?.pagination?.total ?? answer.data.length };
}

/** The media library: a bare array without a total (the upload plugin's answer), paged by "is there more". */
async function listFiles(params: Partial<GetListParams>) {
  const { page = 1, perPage = 24 } = params.pagination ?? {};
  const filter = (params.filter ?? {}) as Json;
  const filters: Json = {};
  if (typeof filter.q === 'string' && filter.q) filters.$or = [{ name: { $containsi: filter.q } }, { alternativeText: { $containsi: filter.q } }];
  if (filter.id !== undefined) filters.id = { $in: [filter.id].flat() };
  const field = params.sort?.field && params.sort.field !== 'id' ? params.sort.field : 'id';
  const files = await request<Json[]>('/upload/files', {
    query: { filters, sort: [`${field}:${params.sort?.order === 'ASC' ? 'asc' : 'desc'}`], pagination: { page, pageSize: perPage + 1 } },
  });
  const data = files.slice(0, perPage) as RaRecord[];
  // On the last page the total is known; before it, "is there more" (one file more than the page was asked).
  if (files.length <= perPage) return { data, total: (page - 1) * perPage + files.length };
  return { data, pageInfo: { hasNextPage: true, hasPreviousPage: page > 1 } };
}

/** Uploads files to the media library (`POST /upload`, several `files` parts); resolves with the stored files. */
export async function uploadFiles(files: File[]): Promise<RaRecord[]> {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  return request<RaRecord[]>('/upload', { method: 'POST', body: form });
}

async function getOne(resource: string, id: unknown, meta?: Json): Promise<RaRecord> {
  const model = await loadModel();
  if (resource === FILES) return request<RaRecord>(`/upload/files/${encodeURIComponent(String(id))}`);
  const ct = typeOf(model, resource);
  const path = ct.kind === 'singleType' ? `/${ct.route}` : `/${ct.route}/${encodeURIComponent(String(id))}`;
  try {
    const answer = await request<{ data: Json }>(path, { query: { ...versionQuery(model, ct, meta?.status, meta?.locale), populate: populateFor(model, ct.attributes) } });
    return asRecord(model, ct, answer.data);
  } catch (error) {
    // A single type not written yet (or not in this locale) is an empty form; a write creates it (PUT).
    // A localized document without this locale's version: an empty form, whose save creates that localization.
    if ((error as { status?: number }).status === 404 && (ct.kind === 'singleType' || ct.localized)) {
      return { id: ct.kind === 'singleType' ? SINGLE : (id as string), __missing: true };
    }
    throw error;
  }
}

async function write(resource: string, method: 'POST' | 'PUT', id: unknown, values: Json, meta?: Json): Promise<RaRecord> {
  const model = await loadModel();
  if (resource === FILES) {
    const fileInfo = { name: values.name, alternativeText: values.alternativeText ?? null, caption: values.caption ?? null };
    return request<RaRecord>('/upload', { method: 'POST', query: { id }, body: { fileInfo } });
  }
  const ct = typeOf(model, resource);
  const path = ct.kind === 'singleType' || method === 'POST' ? `/${ct.route}` : `/${ct.route}/${encodeURIComponent(String(id))}`;
  const answer = await request<{ data: Json }>(path, {
    method: ct.kind === 'singleType' ? 'PUT' : method,
    query: { ...versionQuery(model, ct, meta?.status ?? 'draft', meta?.locale), populate: populateFor(model, ct.attributes) },
    body: { data: toBody(model, ct.attributes, values) },
  });
  return asRecord(model, ct, answer.data);
}

async function remove(resource: string, id: unknown): Promise<void> {
  const model = await loadModel();
  if (resource === FILES) {
    await request(`/upload/files/${encodeURIComponent(String(id))}`, { method: 'DELETE' });
    return;
  }
  const ct = typeOf(model, resource);
  const path = ct.kind === 'singleType' ? `/${ct.route}` : `/${ct.route}/${encodeURIComponent(String(id))}`;
  const query = ct.localized && getContentLocale() ? { locale: getContentLocale() } : {};
  await request(path, { method: 'DELETE', query });
}

/**
 * Draft & publish actions the Content API has no write for: `unpublish` and `discard-draft`
 * (`POST /<route>/<documentId>/actions/<action>`, `/<route>/actions/<action>` for a single type; see docs/admin.md).
 */
export async function documentAction(resource: string, id: unknown, action: 'unpublish' | 'discard-draft'): Promise<void> {
  const model = await loadModel();
  const ct = typeOf(model, resource);
  const path = ct.kind === 'singleType' ? `/${ct.route}/actions/${action}` : `/${ct.route}/${encodeURIComponent(String(id))}/actions/${action}`;
  const query = ct.localized && getContentLocale() ? { locale: getContentLocale() } : {};
  await request(path, { method: 'POST', query });
}

/** Whether the document has a published version (in the content locale): a list read, never a 404. */
export async function isPublished(resource: string, id: unknown): Promise<boolean> {
  const model = await loadModel();
  const ct = typeOf(model, resource);
  if (!ct.draftAndPublish) return false;
  const filters = ct.kind === 'singleType' ? undefined : { documentId: { $eq: id } };
  if (ct.kind === 'singleType') {
    try {
      await request(`/${ct.route}`, { query: { ...versionQuery(model, ct, 'published'), fields: ['documentId'] } });
      return true;
    } catch (error) {
      if ((error as { status?: number }).status === 404) return false;
      throw error;
    }
  }
  const answer = await request<ListAnswer>(`/${ct.route}`, { query: { ...versionQuery(model, ct, 'published'), filters, fields: ['documentId'], pagination: { pageSize: 1 } } });
  return answer.data.length > 0;
}

export const dataProvider: DataProvider = {
  getList: async (resource, params) => (await list(resource, params)) as never,
  getOne: async (resource, params) => ({ data: (await getOne(resource, params.id, params.meta)) as never }),
  getMany: async (resource, params) => {
    if (!params.ids.length) return { data: [] };
    const ids = params.ids.slice(0, 100);
    const answer = await list(resource, { filter: { id: ids }, pagination: { page: 1, perPage: ids.length } });
    return { data: answer.data as never[] };
  },
  getManyReference: async (resource, params) => {
    const answer = await list(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } });
    return answer as never;
  },
  create: async (resource, params) => ({ data: (await write(resource, 'POST', undefined, params.data as Json, params.meta)) as never }),
  update: async (resource, params) => ({ data: (await write(resource, 'PUT', params.id, params.data as Json, params.meta)) as never }),
  updateMany: async (resource, params) => {
    for (const id of params.ids) await write(resource, 'PUT', id, params.data as Json, params.meta);
    return { data: params.ids };
  },
  delete: async (resource, params) => {
    await remove(resource, params.id);
    return { data: (params.previousData ?? { id: params.id }) as never };
  },
  deleteMany: async (resource, params) => {
    for (const id of params.ids) await remove(resource, id);
    return { data: params.ids };
  },
};
