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
import { markSortedBy } from './window-stage';

type Stage = Record<string, unknown>;

/** What the runner needs from the engine. */
export interface PipelineRuntime {
  readonly options: QueryOptions;
  collection(name: string): MemoryCollection;
}

/**
 * Runs an aggregation pipeline on a collection with the result mingo gives on the whole collection, faster
 * for the shapes the pipeline compiler emits (pipeline/compile-find):
 * - a first `$match` through the indexes and a direct test of plain equalities (match-rows);
 * - relation-filter lookups + `$match` + `$unset` as a semi-join on key sets (semi-join);
 * - `$sort` followed by `$limit`, or by `$skip` and `$limit`: only the first `skip + limit` rows are ordered, none
 *   when the rows are already in order (natural order is `id` order);
 * - `$count` is the number of rows (no document when there is none, as MongoDB: mingo gives a count of 0);
 * - `$unionWith` runs its sub-pipeline with this same runner; a list page's total (`$unionWith` of this collection
 *   through the very same stage objects as this pipeline's first stages, then `$count`) is the number of rows
 *   those stages gave here, which is what running them again would give;
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

/** {@link runPipeline}, telling whether the rows are owned (fresh, shared with nothing: handed out uncopied). */
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
  const counts: number[] = [];
  while (i < pipeline.length) {
    counts[i] = rows.length;
    const stage = pipeline[i]!;
    const semi = semiJoin(rt, rows, pipeline, i);
    if (semi) {
      [rows, i] = semi;
      owned = false;
      continue;
    }
    const match = onlyKey(stage, '$match');
    const sort = onlyKey(stage, '$sort');
    const union = unionOf(stage);
    const count = countName(stage);
    if (isObject(match)) {
      rows = rows.filter(compileRowTest(match, rt.options));
    } else if (isObject(sort)) {
      const plan = planSort(rows, sort);
      const window = plan ? pageWindow(pipeline, i + 1) : null;
      if (!plan) {
        rows = mingo(rt, rows, [stage]);
        owned = false;
      } else if (window) {
        rows = firstSorted(rows, plan, window.skip + window.limit).slice(window.skip);
        markSortedBy(rows, sort);
        i = window.next - 1;
      } else {
        rows = firstSorted(rows, plan);
        markSortedBy(rows, sort);
      }
    } else if (count !== null) {
      rows = rows.length > 0 ? [{ [count]: rows.length }] : [];
      owned = true;
    } else if (union) {
      const other = unionRows(rt, col, pipeline, counts, union, readOnly);
      rows = [...rows, ...other.rows];
      owned = owned && other.owned;
    } else {
      ({ rows, owned } = compileStages(cx, [stage])(rows, owned, {}));
    }
    i++;
  }
  return { rows: rows as Row[], owned };
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
    readOnly,
    collection: (name) => rt.collection(name),
    lookup: compileLookup,
    copyRow: readOnly ? (row) => ({ ...row }) : deepCopy,
    copyRows: readOnly ? (rows) => rows.slice() : (rows) => deepCopy(rows as Row[]),
    adoptRows: readOnly ? (rows) => rows : (rows) => deepCopy(rows),
    compiled: new WeakMap(),
  };
}

function mingo(rt: PipelineRuntime, rows: readonly Row[], stages: Pipeline): Row[] {
  return new Aggregator(stages, rt.options).run(rows as Row[]) as Row[];
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

/** `$limit` or `$skip` + `$limit` at `from` (a positive limit): the rows to skip and keep, and the next stage. */
function pageWindow(pipeline: Pipeline, from: number): { skip: number; limit: number; next: number } | null {
  const first = pipeline[from] ? onlyKey(pipeline[from]!, '$skip') : undefined;
  const at = first === undefined ? from : from + 1;
  const limit = pipeline[at] ? onlyKey(pipeline[at]!, '$limit') : undefined;
  if ((first !== undefined && !isCount(first)) || !isCount(limit) || limit === 0) return null;
  return { skip: first ?? 0, limit, next: at + 1 };
}

/** The field name of a `$count` stage MongoDB accepts (non-empty, no leading `$`, no `.`), else null. */
function countName(stage: Stage): string | null {
  const name = onlyKey(stage, '$count');
  return typeof name === 'string' && /^[^$.][^.]*$/.test(name) && name.trim().length > 0 ? name : null;
}

/** `{ $unionWith: 'coll' }` or `{ $unionWith: { coll, pipeline? } }`, else null (other forms run in mingo). */
function unionOf(stage: Stage): { coll: string; pipeline: Pipeline } | null {
  const union = onlyKey(stage, '$unionWith');
  if (typeof union === 'string') return { coll: union, pipeline: [] };
  if (!isObject(union) || typeof union.coll !== 'string') return null;
  if (union.pipeline !== undefined && !Array.isArray(union.pipeline)) return null;
  if (Object.keys(union).some((k) => k !== 'coll' && k !== 'pipeline')) return null;
  return { coll: union.coll, pipeline: (union.pipeline ?? []) as Pipeline };
}

/**
 * The rows a `$unionWith` adds. When it counts this collection through the same stage objects as the first
 * stages of `pipeline` (a list page's total, pipeline/compile-find), the count is the number of rows those stages
 * gave (`counts[k]`: rows before stage k): the same stages on the same rows, in the same synchronous run.
 */
function unionRows(rt: PipelineRuntime, col: MemoryCollection, pipeline: Pipeline, counts: readonly number[], union: { coll: string; pipeline: Pipeline }, readOnly: boolean): RowSet {
  const sub = union.pipeline;
  const k = sub.length - 1;
  const name = k >= 0 ? countName(sub[k]!) : null;
  const counted = counts[k];
  if (name !== null && counted !== undefined && union.coll === col.name && sub.slice(0, k).every((stage, j) => stage === pipeline[j])) {
    return { rows: counted > 0 ? [{ [name]: counted }] : [], owned: true };
  }
  return runOwned(rt, rt.collection(union.coll), sub, readOnly);
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
