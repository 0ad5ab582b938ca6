import { strapiDataProvider } from 'ra-strapi';
import { fetchUtils, HttpError, type DataProvider } from 'react-admin';

/**
 * The example's full-access API token (examples/blog/model/permissions.json). A token in a browser bundle is
 * readable by anyone who can load the page: serve a real admin only to your editors (behind your own login or
 * network), with a token of its own that you can revoke. VITE_API_TOKEN replaces it at build time.
 */
const API_TOKEN: string = import.meta.env.VITE_API_TOKEN ?? 'oracle-full-access-token-7f3a9c1e5b2d4f6a8c0e1b3d5f7a9c2e';

/** The API is on the admin's own origin (vite.config.ts forwards /api and /uploads), so the base URL is empty. */
const BASE_URL = '';

/** Types with draft & publish: the admin edits their drafts, as Strapi's own admin does. */
const DRAFT_AND_PUBLISH = new Set(['articles']);
/** Localized types: read and written in the content locale chosen in the app bar. */
const LOCALIZED = new Set(['articles', 'global']);

const LOCALE_KEY = 'content-router-admin.locale';
let contentLocale: string | null = localStorage.getItem(LOCALE_KEY);

/** The locale localized types are read and written in (null: the API's default locale). */
export const getContentLocale = (): string | null => contentLocale;

/** The event {@link setContentLocale} dispatches on `window`, for views that read outside the data provider. */
export const LOCALE_CHANGE = 'content-locale-change';

/** Sets the content locale (kept in localStorage); the caller refreshes the data provider's views. */
export function setContentLocale(locale: string): void {
  contentLocale = locale;
  localStorage.setItem(LOCALE_KEY, locale);
  window.dispatchEvent(new Event(LOCALE_CHANGE));
}

export type Status = 'draft' | 'published';

interface StrapiErrorBody {
  error?: { message?: string; details?: { errors?: { path?: string[]; message?: string }[] } };
}

/**
 * ra-strapi's requests with the API token as a bearer header. A Strapi error (`{ data: null, error }`) becomes
 * react-admin's HttpError with Strapi's message, and its validation errors are attached to the form fields they
 * name (`body.errors`, react-admin's server-side validation).
 */
export async function httpClient(url: string, options: fetchUtils.Options = {}) {
  try {
    return await fetchUtils.fetchJson(url, { ...options, user: { authenticated: true, token: `Bearer ${API_TOKEN}` } });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const body = error.body as StrapiErrorBody | undefined;
    const message = body?.error?.message ?? error.message;
    const errors: Record<string, string> = {};
    for (const item of body?.error?.details?.errors ?? []) {
      if (item.path?.length && item.message) errors[item.path.join('.')] = item.message;
    }
    throw new HttpError(message, error.status, Object.keys(errors).length ? { errors } : error.body);
  }
}

/** ra-strapi builds every URL itself; this adds query parameters it has no option for (`status`). */
function withQuery(query: Record<string, string>) {
  return (url: string, options?: fetchUtils.Options) => {
    const [path, search = ''] = url.split('?');
    const params = new URLSearchParams(search);
    for (const [key, value] of Object.entries(query)) params.set(key, value);
    return httpClient(`${path}?${params}`, options);
  };
}

const provider = (query: Record<string, string> = {}) => strapiDataProvider({ baseURL: BASE_URL, httpClient: withQuery(query) });
const plain = provider();

/**
 * The parameters ra-strapi does not send: the `status` of a draft & publish type (the list's `status` filter, a
 * save button's `meta.status`, or the draft) and the `locale` of a localized type.
 */
function queryOf(resource: string, status?: unknown): Record<string, string> {
  const query: Record<string, string> = {};
  if (DRAFT_AND_PUBLISH.has(resource) && status !== null) query.status = status === 'published' ? 'published' : 'draft';
  if (LOCALIZED.has(resource) && contentLocale) query.locale = contentLocale;
  return query;
}

/**
 * ra-strapi as it is, with the status of draft & publish types and the locale of localized types passed on:
 * reads of articles show the draft (every document has one) unless the list is filtered on `published`; saves
 * write the draft, and the Publish button (`meta: { status: 'published' }`) writes and publishes; everything
 * happens in the content locale (a delete removes that localization only).
 */
export const dataProvider: DataProvider = {
  ...plain,
  getList: (resource, params) => {
    const { status, ...filter } = params.filter ?? {};
    return provider(queryOf(resource, status)).getList(resource, { ...params, filter });
  },
  getManyReference: (resource, params) => provider(queryOf(resource, params.meta?.status)).getManyReference(resource, params),
  getOne: (resource, params) => provider(queryOf(resource, params.meta?.status)).getOne(resource, params),
  getMany: (resource, params) => provider(queryOf(resource, params.meta?.status)).getMany(resource, params),
  create: (resource, params) => provider(queryOf(resource, params.meta?.status)).create(resource, params),
  update: (resource, params) => provider(queryOf(resource, params.meta?.status)).update(resource, params),
  delete: (resource, params) => provider(queryOf(resource, null)).delete(resource, params),
  deleteMany: (resource, params) => provider(queryOf(resource, null)).deleteMany(resource, params),
};

/**
 * A localized single type in the content locale, read with the same client (ra-strapi addresses documents by id,
 * which single types have not); null when it has no version in that locale.
 */
export async function getSingleType<T>(uid: string): Promise<T | null> {
  try {
    const { json } = await withQuery(queryOf(uid))(`${BASE_URL}/api/${uid}?populate=*`);
    return (json as { data: T }).data;
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return null;
    throw error;
  }
}

/** The locales of the API (`GET /api/i18n/locales`, Strapi's i18n plugin route). */
export async function getLocales(): Promise<{ code: string; name: string; isDefault: boolean }[]> {
  const { json } = await httpClient(`${BASE_URL}/api/i18n/locales`);
  return json as { code: string; name: string; isDefault: boolean }[];
}
