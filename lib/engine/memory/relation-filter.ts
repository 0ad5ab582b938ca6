import type { Filter, Pipeline, Row } from '../types';
import { planLookup } from './fast-lookup';
import { compileRowTest, isPlainField } from './match-rows';
import type { MemoryCollection } from './memory-collection';
import { compileStages, type StageContext } from './row-stages';
import { keptByElements } from './relation-filter-elements';
import { keySpace, matchFields, pick } from './join-keys';
import { markStable, stableId } from './stable-arrays';
import { isObject, onlyKey } from './stage-shape';

/** The relation-filter stages of pipeline/compile-filters found by {@link planRelationFilter}. */
export interface RelationFilterPlan {
  /** The `$lookup`s, each in the `localField`/`foreignField` form. */
  readonly lookups: Pipeline;
  readonly match: Filter;
  /** Their `as` fields, all unset after the `$match`. */
  readonly temps: readonly string[];
  /** The position of the stage after the `$unset`. */
  readonly next: number;
}

/**
 * Recognises, at `from`, the relation-filter stages of pipeline/compile-filters: one or more `$lookup`s with
 * `localField`/`foreignField` (MongoDB's concise correlated form), a `$match`, then `{ $unset: [every as] }`.
 * Null for any other shape.
 *
 * @example
 * planRelationFilter([{ $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [{ $limit: 1 }], as: '__rf1' } },
 *   { $match: { $nor: [{ __rf1: { $size: 0 } }] } }, { $unset: ['__rf1'] }], 0) // { lookups: [...], match: {...}, temps: ['__rf1'], next: 3 }
 */
export function planRelationFilter(pipeline: Pipeline, from: number): RelationFilterPlan | null {
  const temps: string[] = [];
  let i = from;
  for (; i < pipeline.length; i++) {
    const lookup = onlyKey(pipeline[i]!, '$lookup');
    if (!isObject(lookup)) break;
    const as = lookup.as;
    if (planLookup(lookup as never)?.kind !== 'equality' || typeof as !== 'string' || !isPlainField(as) || temps.includes(as)) return null;
    temps.push(as);
  }
  const match = pipeline[i] && onlyKey(pipeline[i]!, '$match');
  const unset = pipeline[i + 1] && onlyKey(pipeline[i + 1]!, '$unset');
  const names = typeof unset === 'string' ? [unset] : unset;
  if (temps.length === 0 || !isObject(match) || !Array.isArray(names) || names.length !== temps.length) return null;
  if (!temps.every((t) => names.includes(t))) return null;
  return { lookups: pipeline.slice(from, i), match, temps, next: i + 2 };
}

/**
 * The rows of `rows` the relation-filter stages keep, as the stored rows themselves (what the `$unset` gives
 * back), or null when a row already holds a temp field (the stages then run one by one). The stages run as they
 * are: the `$lookup`s through row-stages with a read-only context `cx` (each row joined by populate-lookup's
 * equality lookup: an index seek of the foreign field, MongoDB's semantics, on a shallow copy of the row), then
 * the `$match` on the joined rows; nothing of a second implementation. The result of a stable input (a cached
 * scope) is kept until one of the collections the lookups read changes (`collection` gives their versions).
 *
 * @example
 * runRelationFilter(readOnlyContext, (name) => collections.get(name)!, scope, plan)
 */
export function runRelationFilter(cx: StageContext, collection: (name: string) => MemoryCollection, rows: readonly Row[], plan: RelationFilterPlan): readonly Row[] | null {
  const key = cacheKey(collection, rows, plan);
  const cached = key === null ? undefined : results.get(rows)?.get(key);
  if (cached) return cached; // a stable input never changes: it held no temp field when this was computed
  const out = keptRows(cx, rows, plan);
  if (!out) return null;
  if (key !== null) {
    const byKey = results.get(rows) ?? new Map<string, Row[]>();
    if (byKey.size >= 64) byKey.clear();
    byKey.set(key, markStable(out));
    results.set(rows, byKey);
  }
  return out;
}

/** One `$lookup`'s result: the `as` array of row `i` is `arrays[at[i]]` (rows may share one). */
interface Joined {
  readonly at: readonly number[];
  readonly arrays: readonly unknown[];
}

/**
 * The rows the `$match` keeps, each tested as it is after the `$lookup`s, reduced to the fields the `$match`
 * reads (all of them when it holds an operator such as `$expr`). When it reads only the one temp field, the
 * verdict is taken once per distinct joined array.
 */
function keptRows(cx: StageContext, rows: readonly Row[], plan: RelationFilterPlan): Row[] | null {
  const byElements = keptByElements(cx, rows, plan.lookups, plan.match, plan.temps);
  if (byElements !== undefined) return byElements;
  const joined = joinAll(cx, rows, plan);
  if (!joined) return null;
  const test = compileRowTest(plan.match, cx.options);
  const fields = matchFields(plan.match);
  const as = plan.temps[0]!;
  if (fields && joined.length === 1 && [...fields].every((f) => f === as)) {
    const { at, arrays } = joined[0]!;
    const verdicts = arrays.map((array) => test({ [as]: array }));
    return rows.filter((_row, i) => verdicts[at[i]!]);
  }
  return rows.filter((row, i) => {
    const seen = fields ? pick(row, fields) : { ...row };
    joined.forEach(({ at, arrays }, j) => (seen[plan.temps[j]!] = arrays[at[i]!]));
    return test(seen);
  });
}

/**
 * Runs the `$lookup`s. One without `let` whose `localField` reads no earlier temp joins every row with the same
 * local value to the same rows (its pipeline cannot see the row): it runs once per distinct value of a top-level
 * `localField` (scalars, null/missing, arrays of strings), on the first row holding it. Otherwise every row is
 * joined, all the lookups in order. Null when a row holds a temp field.
 */
function joinAll(cx: StageContext, rows: readonly Row[], plan: RelationFilterPlan): Joined[] | null {
  const independent = plan.lookups.every((stage) => {
    const { localField, let: letSpec } = stage.$lookup as Record<string, unknown>;
    return letSpec === undefined && !plan.temps.includes(String(localField).split('.')[0]!);
  });
  if (!independent) {
    for (const row of rows) for (const temp of plan.temps) if (Object.hasOwn(row, temp)) return null;
    const all = compileStages(cx, plan.lookups)(rows, false, {}).rows;
    const at = rows.map((_row, i) => i);
    return plan.temps.map((temp) => ({ at, arrays: all.map((row) => row[temp]) }));
  }
  const out: Joined[] = [];
  for (const stage of plan.lookups) {
    const joined = joinDistinct(cx, rows, stage);
    if (!joined) return null;
    out.push(joined);
  }
  return out;
}

/**
 * One `$lookup` without `let` on the distinct local values of `rows`, each joined on a row holding only the
 * first part of the `localField` path (all the join reads); null when a row holds the `as` field.
 */
function joinDistinct(cx: StageContext, rows: readonly Row[], stage: Record<string, unknown>): Joined | null {
  const { localField, as } = stage.$lookup as { localField: string; as: string };
  const groups = distinctValues(rows, localField, as);
  if (!groups) return null;
  const joined = compileStages(cx, [stage])(groups.distinct, false, {}).rows;
  return { at: groups.at, arrays: joined.map((row) => row[as]) };
}

/** One row per distinct local value (reduced to the path's first field), and which one each input row is. */
type Groups = { readonly at: readonly number[]; readonly distinct: readonly Row[] };
/** Groups of stable input arrays (a cached scope), by local field and temp: a write to the target keeps them. */
const groupsOf = new WeakMap<readonly Row[], Map<string, Groups | null>>();

function distinctValues(rows: readonly Row[], localField: string, as: string): Groups | null {
  const stable = stableId(rows) !== undefined;
  const key = `${localField}\u0000${as}`;
  const cached = stable ? groupsOf.get(rows)?.get(key) : undefined;
  if (cached !== undefined) return cached;
  const head = localField.split('.')[0]!;
  // Two key spaces: scalar values, and the JSON text of arrays of strings (never mistaken for a string value).
  const firstOf = [new Map<unknown, number>(), new Map<unknown, number>()] as const;
  const at: number[] = [];
  const distinct: Row[] = [];
  const plain = isPlainField(localField);
  let groups: Groups | null = { at, distinct };
  for (const row of rows) {
    if (Object.hasOwn(row, as)) {
      groups = null;
      break;
    }
    // A plain field is never inherited (isPlainField): undefined is a missing field.
    const value = plain ? row[localField] : null;
    const space = plain ? keySpace(value) : -1;
    const id = space === 1 ? JSON.stringify(value) : (value ?? null);
    const seen = space === -1 ? undefined : firstOf[space].get(id);
    if (seen !== undefined) {
      at.push(seen);
      continue;
    }
    if (space !== -1) firstOf[space].set(id, distinct.length);
    at.push(distinct.length);
    distinct.push(Object.hasOwn(row, head) ? { [head]: row[head] } : {});
  }
  if (stable) {
    const byKey = groupsOf.get(rows) ?? new Map<string, Groups | null>();
    if (byKey.size >= 16) byKey.clear();
    groupsOf.set(rows, byKey.set(key, groups));
  }
  return groups;
}

/** Results per stable input array, by {@link cacheKey}. */
const results = new WeakMap<readonly Row[], Map<string, Row[]>>();
/** Stages and variables whose result may change without a write: such lookups are never cached. */
const VOLATILE = ['$$NOW', '$$CLUSTER_TIME', '"$rand"', '"$sample"', '"$unionWith"', '"$graphLookup"', '"$documents"', '"$function"', '"$where"'];

/** The stages' text and the version of every collection they read; null for input that is not stable. */
function cacheKey(collection: (name: string) => MemoryCollection, rows: readonly Row[], plan: RelationFilterPlan): string | null {
  const id = stableId(rows);
  if (id === undefined) return null;
  const text = JSON.stringify([plan.lookups, plan.match]);
  if (VOLATILE.some((v) => text.includes(v))) return null;
  const names = new Set<string>();
  collectFroms(plan.lookups, names);
  const versions = [...names].sort().map((name) => `${name}@${collection(name).version}`);
  return `${versions.join(',')}|${text}`;
}

/** The `from` of every `$lookup` anywhere in `value` (sub-pipelines, `$facet`s). */
function collectFroms(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectFroms(item, out);
  } else if (isObject(value)) {
    const lookup = value.$lookup;
    if (isObject(lookup) && typeof lookup.from === 'string') out.add(lookup.from);
    for (const inner of Object.values(value)) collectFroms(inner, out);
  }
}
