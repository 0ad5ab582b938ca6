import type { Pipeline, Row } from '../types';
import { deepCopy } from './deep-copy';
import { compileRowTest, matchRows } from './match-rows';
import type { MemoryCollection } from './memory-collection';
import { Aggregator, type QueryOptions } from './mingo-runtime';
import { planRelationFilter, runRelationFilter } from './relation-filter';
import { firstSorted, planSort } from './sort-rows';
import { compileLookup } from './populate-lookup';
import { compileStages, type RowSet, type StageContext } from './row-stages';

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
 * - relation-filter lookups + `$match` + `$unset`: each row joined by the equality lookup on a shallow copy, the
 *   stored rows kept (relation-filter);
 * - `$sort` followed by `$limit` or by a page `$facet`: only the first `skip + limit` rows are ordered, none when
 *   the rows are already in order (natural order is `id` order), and the `$count` is the number of rows;
 * - results of plain-equality `$match`es, relation filters on those and sorted prefixes are kept until the next
 *   write to the collections they read (see stable-arrays);
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
    const filter = planRelationFilter(pipeline, i);
    const kept = filter && runRelationFilter(stageContext(rt, true), (name) => rt.collection(name), rows, filter);
    if (filter && kept) {
      rows = kept;
      i = filter.next;
      owned = false;
      continue;
    }
    const match = onlyKey(stage, '$match');
    const sort = onlyKey(stage, '$sort');
    const facet = pageFacet(stage);
    if (isObject(match)) {
      rows = rows.filter(compileRowTest(match, rt.options));
    } else if (isObject(sort)) {
      const plan = planSort(rows, sort);
      if (!plan) {
        rows = mingo(rt, rows, [stage]);
        owned = false;
      } else {
        const next = pipeline[i + 1];
        const limit = next ? onlyKey(next, '$limit') : undefined;
        const nextFacet = next ? pageFacet(next) : null;
        if (nextFacet) {
          const all = rows;
          rows = [runFacet(cx, all, nextFacet, (k) => firstSorted(all, plan, k))];
          owned = true;
          i++;
        } else if (isCount(limit) && limit > 0) {
          rows = firstSorted(rows, plan, limit);
          i++;
        } else {
          rows = firstSorted(rows, plan);
        }
      }
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
