import type { Filter, Pipeline, Row } from '../../../types';
import type { MemoryCollection } from '../../storage/memory-collection';
import { isObject, isPlainField, onlyKey } from '../eligibility';
import type { InnerPath, PipelinePath } from '../fast-path';
import { planLookup } from '../lookup-shapes';
import { compileRowTest } from '../match-rows';
import { keptByElements } from '../relation-filter-elements';
import { keptBySemiJoins, RELATION_FILTER_SEMI_JOIN } from '../semi-join';
import type { StageContext } from '../stage-context';
import { markStable, stableId } from '../stable-arrays';
import { BoundedMemo } from '../../../../util/bounded-memo';
import { engineMemos, OBJECT_BYTES, SLOT_BYTES } from '../memo-budget';

/**
 * The path: the relation-filter stages of pipeline/compile-filters ({@link planRelationFilter}) answered by
 * {@link runRelationFilter} with the read-only context; declined when a row already holds a temp field.
 *
 * @example
 * relationFilter.accepts(pipeline, 1, cx)
 */
export const relationFilter: PipelinePath = {
  name: 'relation-filter',
  kind: 'pipeline',
  operators: ['$lookup'],
  accepts(pipeline, at, cx) {
    const plan = planRelationFilter(pipeline, at);
    if (!plan) return null;
    return {
      next: plan.next,
      run: (input) => {
        const kept = runRelationFilter(cx.reader, (name) => cx.collection(name)!, input.rows, plan);
        return kept ? { rows: kept as Row[], owned: false } : null;
      },
    };
  },
};

/** Inside relation-filter: the relation filters the compiler emits answered element by element (relation-filter-elements). */
export const relationFilterElements: InnerPath = { name: 'relation-filter-elements', kind: 'inner', within: 'relation-filter' };

/**
 * Inside relation-filter (and relation-filter-elements): each relation filter's `$lookup`, nested ones included,
 * answered as a semi-join (execution/semi-join) rather than by joining its rows.
 */
export const relationFilterSemiJoin: InnerPath = { name: RELATION_FILTER_SEMI_JOIN, kind: 'inner', within: 'relation-filter' };

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
    const lookup = onlyKey(pipeline[i], '$lookup');
    if (!isObject(lookup)) break;
    const as = lookup.as;
    if (planLookup(lookup as never)?.kind !== 'equality' || typeof as !== 'string' || !isPlainField(as) || temps.includes(as)) return null;
    temps.push(as);
  }
  const match = onlyKey(pipeline[i], '$match');
  const unset = onlyKey(pipeline[i + 1], '$unset');
  const names = typeof unset === 'string' ? [unset] : unset;
  if (temps.length === 0 || !isObject(match) || !Array.isArray(names) || names.length !== temps.length) return null;
  if (!temps.every((t) => names.includes(t))) return null;
  return { lookups: pipeline.slice(from, i), match, temps, next: i + 2 };
}

/**
 * The rows of `rows` the relation-filter stages keep, as the stored rows themselves (what the `$unset` gives
 * back), or null when a row already holds a temp field (the stages then run one by one). The stages run as they
 * are: the `$lookup`s through the planner with a read-only context `cx` (each row joined by indexed-lookup's
 * indexed-lookup: an index seek of the foreign field, MongoDB's semantics, on a shallow copy of the row), then
 * the `$match` on the joined rows; nothing of a second implementation. The result of a stable input (a cached
 * scope) is kept until one of the collections the lookups read changes (`collection` gives their versions).
 *
 * @example
 * runRelationFilter(readOnlyContext, (name) => collections.get(name)!, scope, plan)
 */
export function runRelationFilter(cx: StageContext, collection: (name: string) => MemoryCollection, rows: readonly Row[], plan: RelationFilterPlan): readonly Row[] | null {
  const key = cacheKey(collection, rows, plan);
  const cached = key === null ? undefined : resultsOf.get(rows)?.get(`${contextId(cx)}|${key}`);
  if (cached) return cached; // a stable input never changes: it held no temp field when this was computed
  const out = keptRows(cx, rows, plan);
  if (!out) return null;
  if (key !== null) {
    const byKey = resultsOf.get(rows) ?? resultsOf.set(rows, new Map());
    if (byKey.size >= 64) byKey.clear();
    const kept = `${contextId(cx)}|${key}`;
    byKey.set(kept, markStable(out));
    resultsOf.grew(resultBytes(out, kept));
  }
  return out;
}

/**
 * The rows the `$match` keeps. The relation filters the compiler emits are answered by keptByElements, which joins
 * each distinct key once; any other shape (a `localField` through a component, a lookup with `let`, a `$match`
 * reading more than whether a join is empty) joins every row, the `$lookup`s in order, and tests the `$match` on
 * the joined row. Null when a row already holds a temp field.
 */
function keptRows(cx: StageContext, rows: readonly Row[], plan: RelationFilterPlan): Row[] | null {
  const byElements = cx.uses(relationFilterElements.name) ? keptByElements(cx, rows, plan.lookups, plan.match, plan.temps) : undefined;
  if (byElements !== undefined) return byElements;
  const bySemiJoins = keptBySemiJoins(cx, rows, plan.lookups, plan.match, plan.temps);
  if (bySemiJoins !== undefined) return bySemiJoins;
  for (const row of rows) for (const temp of plan.temps) if (Object.hasOwn(row, temp)) return null;
  const joined = cx.compile(plan.lookups)(rows, false, {}).rows;
  const test = compileRowTest(plan.match, cx.options);
  return rows.filter((_row, i) => test(joined[i]!));
}

/**
 * Results per stable input array, by context (its fast paths: with one switched off, the result is computed by
 * the others, never taken from a run that used it) and {@link cacheKey}; within the engine's memo budget.
 */
const resultsOf = new BoundedMemo<readonly Row[], Map<string, Row[]>>(engineMemos, (byKey) => {
  let bytes = OBJECT_BYTES;
  for (const [key, rows] of byKey) bytes += resultBytes(rows, key);
  return bytes;
});

/** The bytes a kept result is counted for: its key's characters, its array's slots. */
const resultBytes = (rows: readonly Row[], key: string): number => 2 * OBJECT_BYTES + 2 * key.length + SLOT_BYTES * rows.length;

/** A number per context, for the results' keys (contexts are few: one per engine and set of fast paths). */
const contextIds = new WeakMap<StageContext, number>();
let contexts = 0;
function contextId(cx: StageContext): number {
  let id = contextIds.get(cx);
  if (id === undefined) contextIds.set(cx, (id = ++contexts));
  return id;
}
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
