import type { Filter } from '../engine/types';
import type { ContentType } from '../schema/types';
import { fallbackLocale, type CompileContext, type SourceLocale } from './compile-context';

/** The restriction of a relation's target rows, and the locale scope of the rows it yields. */
export interface TargetScope {
  /** Static `_status` / `locale` conditions. */
  readonly match: Filter;
  /** true: the target row must have the same locale as the source row (`$$loc`, bound in the lookup's `let`). */
  readonly sameRowLocale: boolean;
  /** How the target rows' own relations resolve their locale. */
  readonly rows: SourceLocale;
}

/**
 * Which target rows a relation resolves to (docs/storage-model.md "Resolving relations"): the read status when the
 * target has draft & publish; for a localized target, the source row's locale when the source is localized, else
 * the request (or default) locale on the owning side and every locale on the `mappedBy` side (Strapi keeps one
 * relation per target row, so each localization that points at the source is listed).
 * `correlated: false` (relation filters) cannot follow a per-row locale and drops that restriction.
 */
export function targetScope(ctx: CompileContext, target: ContentType, source: SourceLocale, mappedBy: boolean, correlated: boolean): TargetScope {
  const match: Filter = {};
  if (target.draftAndPublish) match._status = ctx.status;
  if (!target.localized) return { match, sameRowLocale: false, rows: { kind: 'none' } };
  if (source.kind === 'static') {
    match.locale = source.locale;
    return { match, sameRowLocale: false, rows: source };
  }
  if (source.kind === 'row') {
    return { match, sameRowLocale: correlated, rows: { kind: 'row' } };
  }
  if (mappedBy) return { match, sameRowLocale: false, rows: { kind: 'row' } };
  const locale = fallbackLocale(ctx);
  match.locale = locale;
  return { match, sameRowLocale: false, rows: { kind: 'static', locale } };
}
