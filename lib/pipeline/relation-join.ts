import type { MediaAttribute, RelationAttribute } from '../schema/types';
import { UPLOAD_FILE_UID } from '../schema/types';
import type { CompileContext, SourceLocale, Stage } from './compile-context';
import { targetScope } from './target-scope';

/** The correlated head of a relation `$lookup`: `let`, the key `$match` first, then the scope `$match`es. */
export interface RelationJoin {
  readonly from: string;
  readonly let: Record<string, unknown>;
  /** `[{ $match: { $expr: <key test> } }, ...scope matches]`: the key test is always the first stage. */
  readonly head: Stage[];
  /** Several target rows (to-many, multiple media, mappedBy side). */
  readonly multi: boolean;
  /** Set when the stored array gives the order: the `let` variable holding it and the target key field. */
  readonly order?: { readonly ids: string; readonly key: string };
  /** Locale scope of the joined rows, for their own relations. */
  readonly rows: SourceLocale;
}

/**
 * Builds the correlated join of one relation or media attribute whose stored value is `valueExpr` (usually
 * `$<attribute>`; for relations inside components, an expression collecting every stored key as an array, then
 * `forceArray` is set). Key tests, in the exact shapes the memory engine indexes:
 * `$eq: ['$documentId', '$$v']` / `$in: ['$documentId', '$$ids']` (owning side, `id` for media) and
 * `$eq: ['$<owner>', '$$v']` / `$in: ['$$v', { $ifNull: ['$<owner>', []] }]` (mappedBy side, to-one / to-many owner).
 */
export function relationJoin(ctx: CompileContext, attribute: RelationAttribute | MediaAttribute, source: SourceLocale, valueExpr: unknown, forceArray = false): RelationJoin {
  const target = ctx.registry.contentType(attribute.kind === 'media' ? UPLOAD_FILE_UID : attribute.target);
  const mappedBy = attribute.kind === 'relation' && !attribute.owner ? attribute.mappedBy : undefined;
  const scope = targetScope(ctx, target, source, mappedBy !== undefined, true);
  const vars: Record<string, unknown> = {};
  let key: Stage;
  let multi: boolean;
  let order: RelationJoin['order'];
  if (mappedBy !== undefined) {
    const owner = target.attributes[mappedBy];
    vars.v = '$documentId';
    key = owner?.kind === 'relation' && owner.toMany
      ? { $match: { $expr: { $in: ['$$v', { $ifNull: [`$${mappedBy}`, []] }] } } }
      : { $match: { $expr: { $eq: [`$${mappedBy}`, '$$v'] } } };
    multi = attribute.kind === 'relation' && attribute.toMany;
  } else {
    const field = attribute.kind === 'media' ? 'id' : 'documentId';
    multi = forceArray || (attribute.kind === 'media' ? attribute.multiple : attribute.toMany);
    if (multi) {
      vars.ids = { $ifNull: [valueExpr, []] };
      key = { $match: { $expr: { $in: [`$${field}`, '$$ids'] } } };
      order = { ids: '$$ids', key: field };
    } else {
      vars.v = valueExpr;
      key = { $match: { $expr: { $eq: [`$${field}`, '$$v'] } } };
    }
  }
  const head: Stage[] = [key];
  if (Object.keys(scope.match).length > 0) head.push({ $match: scope.match });
  if (scope.sameRowLocale) {
    vars.loc = '$locale';
    head.push({ $match: { $expr: { $eq: ['$locale', '$$loc'] } } });
  }
  return { from: target.collectionName, let: vars, head, multi, ...(order ? { order } : {}), rows: scope.rows };
}
