import { ValidationError } from '../errors';
import type { SortItem } from '../query/types';
import { UPLOAD_FILE_UID, type Attributes, type ContentType } from '../schema/types';
import type { CompileContext, SourceLocale, Stage } from './compile-context';
import { bigIntegerSortKey } from './big-integer-order';
import { joinLookup, relationJoin } from './relation-join';
import { sortKeyField, TEMP } from './reserved-fields';

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
  const lists: { path: string; arrays: string[] }[] = [];
  for (const item of items) {
    const dir = item.order === 'desc' ? -1 : 1;
    const arrays: string[] = [];
    const key = sortKey(ctx, owner.attributes, item.path, '', source, dir, stages, temps, arrays);
    if (key in sort) continue;
    sort[key] = dir;
    const path = item.path.join('.');
    const other = lists.find((l) => parallel(l.arrays, arrays));
    if (other) throw new ValidationError(`Cannot sort on two lists at once: ${other.path} and ${path}`, { key: item.path[0] ?? '', path, source: 'query', param: 'sort' });
    if (arrays.length > 0) lists.push({ path, arrays });
  }
  if (!('id' in sort)) sort.id = 1;
  return { stages, sort, temps };
}

/**
 * Whether two sort keys hold arrays MongoDB calls parallel: arrays at paths where neither contains the other
 * (`a.b` and `c.d`; `a.b` and `a.c` when `a.b` and `a.c` are arrays too; `a` and `a.b` are nested, not parallel).
 * MongoDB refuses to sort on them ("cannot sort with keys that are parallel arrays", BadValue): a sort follows the
 * compound multikey index rule (https://www.mongodb.com/docs/manual/core/indexes/index-types/index-multikey/
 * "Compound Multikey Indexes"; https://www.mongodb.com/docs/manual/release-notes/3.6-compatibility/, "Array Sort Behavior").
 */
function parallel(a: readonly string[], b: readonly string[]): boolean {
  const within = (x: string, y: string): boolean => x === y || y.startsWith(`${x}.`);
  return a.some((x) => b.some((y) => !within(x, y) && !within(y, x)));
}

/**
 * The `$sort` key of `path`, pushing its stages and temps; `arrays` gets the paths of the arrays the key's values
 * come from (repeatable components on the path; the key itself when it is a computed array).
 */
function sortKey(ctx: CompileContext, attrs: Attributes, path: readonly string[], prefix: string, source: SourceLocale, dir: 1 | -1, stages: Stage[], temps: string[], arrays: string[]): string {
  const [head, ...rest] = path;
  const attribute = head === undefined ? undefined : attrs[head];
  if (!attribute || head === undefined) throw new ValidationError(`Invalid key ${head ?? ''}`, { key: head ?? '', path: path.join('.'), source: 'query', param: 'sort' });
  if (attribute.kind === 'scalar' && rest.length === 0) {
    if (attribute.type !== 'biginteger') return `${prefix}${head}`;
    // Stored as decimal strings: sorted on a key whose string order is numeric order (big-integer-order).
    const key = ctx.next(TEMP.bigIntegerKey);
    stages.push({ $addFields: { [key]: bigIntegerSortKey(`${prefix}${head}`) } });
    temps.push(key);
    if (arrays.length > 0) arrays.splice(0, arrays.length, key); // one key per item: a new top-level array
    return key;
  }
  if (attribute.kind === 'component' && rest.length > 0) {
    if (attribute.repeatable) arrays.push(`${prefix}${head}`);
    return sortKey(ctx, ctx.registry.component(attribute.component).attributes, rest, `${prefix}${head}.`, source, dir, stages, temps, arrays);
  }
  if ((attribute.kind === 'relation' || attribute.kind === 'media') && rest.length > 0) {
    const join = relationJoin(ctx, attribute, source, `${prefix}${head}`);
    const target = ctx.registry.contentType(attribute.kind === 'media' ? UPLOAD_FILE_UID : attribute.target);
    const inner: Stage[] = [];
    const innerTemps: string[] = [];
    const innerArrays: string[] = [];
    const innerKey = sortKey(ctx, target.attributes, rest, '', join.rows, dir, inner, innerTemps, innerArrays);
    const temp = ctx.next(TEMP.sortJoin);
    const keyField = sortKeyField(temp);
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
    // `$min`/`$max` of the joined keys is one of them: an array when they are (a target's repeatable component).
    arrays.splice(0, arrays.length, ...(innerArrays.length > 0 ? [keyField] : []));
    return keyField;
  }
  throw new ValidationError(`Invalid key ${head}`, { key: head, path: path.join('.'), source: 'query', param: 'sort' });
}
