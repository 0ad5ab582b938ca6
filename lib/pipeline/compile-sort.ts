import { ValidationError } from '../errors';
import type { SortItem } from '../query/types';
import { UPLOAD_FILE_UID, type Attributes, type ContentType } from '../schema/types';
import type { CompileContext, SourceLocale, Stage } from './compile-context';
import { bigIntegerSortKey } from './big-integer-order';
import { joinLookup, relationJoin } from './relation-join';

/** Stages computing relation sort keys, the `$sort` document, and the temp fields to unset after sorting. */
export interface CompiledSort {
  readonly stages: Stage[];
  readonly sort: Record<string, 1 | -1>;
  readonly temps: string[];
}

/**
 * Compiles sort items on the rows of `owner`. Scalar and component paths sort by (dotted) field; a path through a
 * relation (`author.name`) joins the target with a correlated `$lookup` into `__s<N>` and sorts on a key
 * `__sk<N>` (`$min` ascending, `$max` descending over to-many targets; null when there is none, so such rows come
 * first ascending like SQL NULLs). `id` is always appended as the tie-breaker; no item = `{ id: 1 }`.
 *
 * @example
 * compileSort(ctx, article, [{ path: ['title'], order: 'desc' }], source).sort // { title: -1, id: 1 }
 */
export function compileSort(ctx: CompileContext, owner: ContentType, items: readonly SortItem[], source: SourceLocale): CompiledSort {
  const stages: Stage[] = [];
  const temps: string[] = [];
  const sort: Record<string, 1 | -1> = {};
  for (const item of items) {
    const dir = item.order === 'desc' ? -1 : 1;
    const key = sortKey(ctx, owner.attributes, item.path, '', source, dir, stages, temps);
    if (!(key in sort)) sort[key] = dir;
  }
  if (!('id' in sort)) sort.id = 1;
  return { stages, sort, temps };
}

function sortKey(ctx: CompileContext, attrs: Attributes, path: readonly string[], prefix: string, source: SourceLocale, dir: 1 | -1, stages: Stage[], temps: string[]): string {
  const [head, ...rest] = path;
  const attribute = head === undefined ? undefined : attrs[head];
  if (!attribute || head === undefined) throw new ValidationError(`Invalid key ${head ?? ''}`, { key: head ?? '', path: path.join('.'), source: 'query', param: 'sort' });
  if (attribute.kind === 'scalar' && rest.length === 0) {
    if (attribute.type !== 'biginteger') return `${prefix}${head}`;
    // Stored as decimal strings: sorted on a key whose string order is numeric order (big-integer-order).
    const key = ctx.next('__bk');
    stages.push({ $addFields: { [key]: bigIntegerSortKey(`${prefix}${head}`) } });
    temps.push(key);
    return key;
  }
  if (attribute.kind === 'component' && rest.length > 0) {
    return sortKey(ctx, ctx.registry.component(attribute.component).attributes, rest, `${prefix}${head}.`, source, dir, stages, temps);
  }
  if ((attribute.kind === 'relation' || attribute.kind === 'media') && rest.length > 0) {
    const join = relationJoin(ctx, attribute, source, `${prefix}${head}`);
    const target = ctx.registry.contentType(attribute.kind === 'media' ? UPLOAD_FILE_UID : attribute.target);
    const inner: Stage[] = [];
    const innerTemps: string[] = [];
    const innerKey = sortKey(ctx, target.attributes, rest, '', join.rows, dir, inner, innerTemps);
    const temp = ctx.next('__s');
    const keyField = temp.replace('__s', '__sk');
    // As cheap as the shape allows on MongoDB: the equality on the foreign field is an index probe (indexesFor);
    // the scope `$match`es come first in the sub-pipeline, so they coalesce with the equality `$match` the server
    // puts before it and run in the same query (https://www.mongodb.com/docs/manual/core/aggregation-pipeline-optimization/,
    // "$match + $match Coalescence"; `documentId`, `locale`, `_status` are one index); an owning to-one relation or
    // single media at the top level stops at its only row (`$limit: 1`: the unique documentId+locale+_status / id
    // index allows one; under a repeatable component the dotted localField may give several keys), before any
    // nested sort join; only the key leaves the sub-pipeline (`$project`), so `$min`/`$max` read one small value.
    const single = prefix === '' && !join.multi && (attribute.kind === 'media' || attribute.owner);
    stages.push(
      joinLookup(join, [...join.head, ...(single ? [{ $limit: 1 }] : []), ...inner, { $project: { _id: 0, k: `$${innerKey}` } }], temp),
      { $addFields: { [keyField]: { [dir === 1 ? '$min' : '$max']: `$${temp}.k` } } },
    );
    temps.push(temp, keyField);
    return keyField;
  }
  throw new ValidationError(`Invalid key ${head}`, { key: head, path: path.join('.'), source: 'query', param: 'sort' });
}
