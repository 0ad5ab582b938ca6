import type { Filter, Pipeline } from '../engine/types';
import type { Status } from '../query/types';
import type { ContentType, Registry } from '../schema/types';

/** One aggregation stage. */
export type Stage = Pipeline[number];

/**
 * State shared by the compile steps of ONE query: the registry, the read status and request locale, and a
 * counter that names temp fields (`__rf1`, `__p2`, `__s3`, ...) uniquely across the whole pipeline.
 */
export interface CompileContext {
  readonly registry: Registry;
  readonly status: Status;
  /** The request's locale: a configured code, '*' or undefined (non-localized root type). */
  readonly locale: string | undefined;
  /** Query.maxJoinedRows: each to-many populate join stops after one row more (`$limit`); none when undefined. */
  readonly maxJoinedRows?: number;
  next(prefix: string): string;
}

/** Creates the context of one compile call (the counter is its only state). */
export function createContext(registry: Registry, status: Status, locale: string | undefined, maxJoinedRows?: number): CompileContext {
  let n = 0;
  return { registry, status, locale, ...(maxJoinedRows === undefined ? {} : { maxJoinedRows }), next: (prefix) => `${prefix}${++n}` };
}

/**
 * Where the rows being read come from, to resolve the locale of their relations:
 * `static` when every row has that locale, `row` when rows of several locales are read (`locale=*`).
 */
export type SourceLocale = { readonly kind: 'static'; readonly locale: string } | { readonly kind: 'row' } | { readonly kind: 'none' };

/** The locale scope of the root rows of a query on `ct`. */
export function rootSourceLocale(ct: ContentType, locale: string | undefined): SourceLocale {
  if (!ct.localized) return { kind: 'none' };
  if (locale === '*') return { kind: 'row' };
  return locale === undefined ? { kind: 'none' } : { kind: 'static', locale };
}

/** `_status` / `locale` restriction of the root rows (types without draft & publish have published rows only). */
export function rootScope(ct: ContentType, status: Status, locale: string | undefined): Filter {
  const scope: Filter = {};
  if (ct.draftAndPublish) scope._status = status;
  if (ct.localized && locale !== undefined && locale !== '*') scope.locale = locale;
  return scope;
}

/** The concrete locale a relation from a non-localized source resolves to: the request's, else the default. */
export function fallbackLocale(ctx: CompileContext): string {
  return ctx.locale !== undefined && ctx.locale !== '*' ? ctx.locale : ctx.registry.i18n.defaultLocale;
}
