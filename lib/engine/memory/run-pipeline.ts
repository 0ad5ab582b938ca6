import type { Pipeline, Row } from '../types';
import { deepCopy } from './deep-copy';
import { planLookup } from './fast-lookup';
import { compileRowTest, matchRows } from './match-rows';
import type { MemoryCollection } from './memory-collection';
import { Aggregator, type QueryOptions } from './mingo-runtime';
import { compileJoinedTest } from './semi-join';
import { firstSorted, planSort } from './sort-rows';
import { compileLookup } from './populate-lookup';
import { compileStages, type RowSet, type StageContext } from './row-stages';
import { markStable, stableId } from './stable-arrays';

type Stage = Record<string, unknown>;

/** What the runner needs from the engine. */
export interface PipelineRuntime {
  readonly options: QueryOptions;
  collection(name: string): MemoryCollection;
}

/** A page facet: `{ [data]: [$skip, $limit, ...rest], [total]?: [{ $count: name }] }`. */
interface PageFacet {
  skip: number;
  limit: number;
  rest: Pipeline;
  keys: { name: string; count?: string }[];
}

/**
 * Runs an aggregation pipeline on a collection with the result mingo gives on the whole collection, faster
 * for the shapes the pipeline compiler emits (pipeline/compile-find):
 * - a first `$match` through the indexes and a direct test of plain equalities (match-rows);
 * - relation-filter lookups + `$match` + `$unset` as a semi-join on key sets (semi-join);
 * - `$sort` followed by `$limit` or by a page `$facet`: only the first `skip + limit` rows are ordered, none when
 *   the rows are already in order (natural order is `id` order), and the `$count` is the number of rows;
 * - results of plain-equality `$match`es, self-contained relation-filter sub-pipelines, semi-joins of those and
 *   sorted prefixes are kept until the next write to the collections they read (see stable-arrays);
 * Every other stage runs in mingo, one stage at a time (stages are independent transforms of the row stream).
 *
 * @example
 * runPipeline(runtime, runtime.collection('articles'), [{ $match: { _status: 'published' } }, { $sort: { id: 1 } }])
 */
export function runPipeline(rt: PipelineRuntime, col: MemoryCollection, pipeline: Pipeline): Row[] {
  return runOwned(rt, col, pipeline).rows;
}

/**
 * {@link runPipeline}, telling whether the rows are owned (fresh objects sharing nothing with stored rows nor
 * with each other: the engine hands them out without a copy).
 */
export function runOwned(rt: PipelineRuntime, col: MemoryCollection, pipeline: Pipeline, readOnly = false): RowSet {
  const cx = stageContext(rt, readOnly);
  let owned = false;
  let rows: readonly Row[] = col.all();
  let i = 0;
  const first = pipeline[0] && onlyKey(pipeline[0], '$match');
  if (isObject(first)) {
    rows = matchRows(col, first, rt.options);
    i = 1;
  }
  while (i < pipeline.length) {
    const stage = pipeline[i]!;
    const semi = semiJoin(rt, rows, pipeline, i);
    if (semi) {
      [rows, i] = semi;
      owned = false;
      continue;
    }
    const match = onlyKey(stage, '$match');
    const sort = onlyKey(stage, '$sort');
    const facet = pageFacet(stage);
    if (isObject(match)) {
      rows = rows.filter(compileRowTest(match, rt.options));
    } else if (isObject(sort)) {
      let skipped: number;
      ({ rows, owned, skipped } = sortStage(rt, cx, rows, owned, pipeline, i));
      i += skipped;
    } else if (facet) {
      const all = rows;
      rows = [runFacet(cx, all, facet, (k) => all.slice(0, k))];
      owned = true;
    } else {
      ({ rows, owned } = compileStages(cx, [stage])(rows, owned, {}));
    }
    i++;
  }
  return { rows: rows as Row[], owned };
}

/**
 * The `$sort` at `pipeline[at]`: by sort-rows when it can order the rows (only the first `skip + limit` when a
 * `$limit` or a page `$facet` follows, after a relation sort's `$unset` of its temporary fields, which changes no
 * order and no count and so runs on the page's rows only), else by mingo. `skipped`: the stages it ran too.
 */
function sortStage(rt: PipelineRuntime, cx: StageContext, rows: readonly Row[], owned: boolean, pipeline: Pipeline, at: number): RowSet & { skipped: number } {
  const stage = pipeline[at]!;
  const plan = planSort(rows, stage.$sort as Record<string, unknown>);
  if (!plan) return { rows: mingo(rt, rows, [stage]), owned: false, skipped: 0 };
  const unset = tempUnset(cx, pipeline[at + 1]);
  const next = pipeline[unset ? at + 2 : at + 1];
  const limit = next ? onlyKey(next, '$limit') : undefined;
  const facet = next ? pageFacet(next) : null;
  const first = (k: number): RowSet => (unset ? unset(firstSorted(rows, plan, k)) : { rows: firstSorted(rows, plan, k), owned });
  if (facet) return { rows: [runFacet(cx, rows, facet, (k) => first(k).rows)], owned: true, skipped: unset ? 2 : 1 };
  if (isCount(limit) && limit > 0) return { ...first(limit), skipped: unset ? 2 : 1 };
  return { rows: firstSorted(rows, plan), owned, skipped: 0 };
}

/**
 * The runtime as row-stages sees it: correlated lookups run by populate-lookup; `readOnly`: rows are copied
 * at the top level only (the caller never mutates them, see AggregateOptions).
 */
function stageContext(rt: PipelineRuntime, readOnly: boolean): StageContext {
  let both = contexts.get(rt);
  if (!both) contexts.set(rt, (both = [newStageContext(rt, false), newStageContext(rt, true)]));
  return both[readOnly ? 1 : 0];
}

/** The two stage contexts of each runtime (copying, read-only), with what they compiled. */
const contexts = new WeakMap<PipelineRuntime, readonly [StageContext, StageContext]>();

function newStageContext(rt: PipelineRuntime, readOnly: boolean): StageContext {
  return {
    options: rt.options,
    collection: (name) => rt.collection(name),
    lookup: compileLookup,
    copyRow: readOnly ? (row) => ({ ...row }) : deepCopy,
    copyRows: readOnly ? (rows) => rows.slice() : (rows) => deepCopy(rows as Row[]),
    adoptRows: readOnly ? (rows) => rows : (rows) => deepCopy(rows),
    compiled: new WeakMap(),
  };
}

/** `{ $unset: [<temporary fields>] }` (`__s1`, `__sk1`...) compiled by row-stages, else null. */
function tempUnset(cx: StageContext, stage: Stage | undefined): ((rows: Row[]) => RowSet) | null {
  const names = stage ? onlyKey(stage, '$unset') : undefined;
  if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string' && /^__[a-z]+[0-9]+$/.test(n))) return null;
  const run = compileStages(cx, [stage!]);
  return (rows) => run(rows, false, {});
}

function mingo(rt: PipelineRuntime, rows: readonly Row[], stages: Pipeline): Row[] {
  return new Aggregator(stages, rt.options).run(rows as Row[]) as Row[];
}

/** The facet's output row, owned: the page branch runs in row-stages and is copied unless already owned. */
function runFacet(cx: StageContext, rows: readonly Row[], facet: PageFacet, first: (k: number) => Row[]): Row {
  const page = first(facet.skip + facet.limit).slice(facet.skip);
  const out: Row = {};
  for (const key of facet.keys) {
    if (key.count !== undefined) {
      out[key.name] = [{ [key.count]: rows.length }];
      continue;
    }
    const result = compileStages(cx, facet.rest)(page, false, {});
    out[key.name] = result.owned ? result.rows : cx.copyRows(result.rows);
  }
  return out;
}

/**
 * `[...uncorrelated $lookup into T1..Tn, $match, $unset [T1..Tn]]` at `from`: the matching rows (stored rows,
 * without temps, as after the `$unset`) and the index of the next stage; null for any other shape.
 */
function semiJoin(rt: PipelineRuntime, rows: readonly Row[], pipeline: Pipeline, from: number): [Row[], number] | null {
  const joined = new Map<string, Row[]>();
  let i = from;
  for (; i < pipeline.length; i++) {
    const lookup = onlyKey(pipeline[i]!, '$lookup');
    if (!isObject(lookup)) break;
    const expr = lookup as { from?: unknown; as?: unknown; pipeline?: unknown };
    if (typeof expr.from !== 'string' || typeof expr.as !== 'string' || joined.has(expr.as) || planLookup(lookup as never)?.kind !== 'uncorrelated') return null;
    joined.set(expr.as, []);
  }
  const match = pipeline[i] && onlyKey(pipeline[i]!, '$match');
  const unset = pipeline[i + 1] && onlyKey(pipeline[i + 1]!, '$unset');
  const names = typeof unset === 'string' ? [unset] : unset;
  if (joined.size === 0 || !isObject(match) || !Array.isArray(names)) return null;
  if (names.length !== joined.size || !names.every((n) => typeof n === 'string' && joined.has(n))) return null;
  for (let j = from; j < i; j++) {
    const lookup = pipeline[j]!.$lookup as { from: string; as: string; pipeline: Pipeline };
    joined.set(lookup.as, joinedRows(rt, rt.collection(lookup.from), lookup.pipeline));
  }
  return [semiJoinRows(rt, rows, joined, match), i + 2];
}

/** Semi-join results of stable inputs (a cached scope and cached joined rows), per input array. */
const semiJoinCache = new WeakMap<readonly Row[], Map<string, Row[]>>();

function semiJoinRows(rt: PipelineRuntime, rows: readonly Row[], joined: Map<string, Row[]>, match: Record<string, unknown>): Row[] {
  const parts = [stableId(rows), ...[...joined].map(([as, r]) => `${as}:${stableId(r) ?? ''}`)];
  const key = parts.every((p) => p !== undefined && !String(p).endsWith(':')) ? `${parts.join(',')}|${JSON.stringify(match)}` : null;
  const cached = key === null ? undefined : semiJoinCache.get(rows)?.get(key);
  if (cached) return cached;
  const out = rows.filter(compileJoinedTest(match, joined, rt.options));
  if (key !== null) {
    const byKey = semiJoinCache.get(rows) ?? new Map<string, Row[]>();
    if (byKey.size >= 64) byKey.clear();
    byKey.set(key, markStable(out));
    semiJoinCache.set(rows, byKey);
  }
  return out;
}

/** Results of self-contained uncorrelated sub-pipelines per collection, valid until its next write. */
const joinedCache = new WeakMap<MemoryCollection, { version: number; results: Map<string, Row[]> }>();

/**
 * The rows of an uncorrelated relation-filter sub-pipeline. When it reads only its own collection (no nested
 * `$lookup`, no variable such as `$$NOW`), the result is kept until that collection changes; the array is
 * shared and never mutated.
 */
function joinedRows(rt: PipelineRuntime, col: MemoryCollection, pipeline: Pipeline): Row[] {
  const key = JSON.stringify(pipeline);
  if (key.includes('"$lookup"') || key.includes('$$') || key.includes('"$unionWith"')) return runPipeline(rt, col, pipeline);
  let cache = joinedCache.get(col);
  if (cache?.version !== col.version) {
    cache = { version: col.version, results: new Map() };
    joinedCache.set(col, cache);
  }
  let rows = cache.results.get(key);
  if (!rows) {
    rows = markStable(runPipeline(rt, col, pipeline));
    if (cache.results.size >= 256) cache.results.clear();
    cache.results.set(key, rows);
  }
  return rows;
}

function pageFacet(stage: Stage): PageFacet | null {
  const facet = onlyKey(stage, '$facet');
  if (!isObject(facet)) return null;
  let found: { skip: number; limit: number; rest: Pipeline } | null = null;
  const keys: PageFacet['keys'] = [];
  for (const [name, sub] of Object.entries(facet)) {
    if (!Array.isArray(sub)) return null;
    const count = sub.length === 1 && isObject(sub[0]) ? onlyKey(sub[0], '$count') : undefined;
    if (typeof count === 'string' && /^[^$.]+$/.test(count) && count.trim().length > 0) {
      keys.push({ name, count });
      continue;
    }
    const skip = isObject(sub[0]) ? onlyKey(sub[0], '$skip') : undefined;
    const limit = isObject(sub[1]) ? onlyKey(sub[1], '$limit') : undefined;
    if (found || !isCount(skip) || !isCount(limit) || limit === 0) return null;
    found = { skip, limit, rest: sub.slice(2) as Pipeline };
    keys.push({ name });
  }
  return found ? { ...found, keys } : null;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value of `stage` when `key` is its only key. */
function onlyKey(stage: Stage, key: string): unknown {
  const keys = Object.keys(stage);
  return keys.length === 1 && keys[0] === key ? stage[key] : undefined;
}
