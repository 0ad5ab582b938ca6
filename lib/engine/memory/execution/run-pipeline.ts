import { isTempField } from '../../../pipeline/reserved-fields';
import { createIdentityCache } from '../../../util/frozen';
import type { Pipeline, Row } from '../../types';
import { unionStage } from '../../union-stage';
import { deepCopy } from '../storage/deep-copy';
import { planLimitedStream, runLimitedStream } from './limited-stream';
import { compileRowTest, matchRows } from './match-rows';
import type { MemoryCollection } from '../storage/memory-collection';
import { Aggregator, type QueryOptions } from '../semantics/mingo-runtime';
import { planRelationFilter, runRelationFilter } from './relation-filter';
import { firstSorted, planSort } from './sort-rows';
import { compileLookup } from './populate-lookup';
import { compileStages, type RowSet, type StageContext } from './row-stages';
import { isObject, onlyKey } from './stage-shape';
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
 * - relation-filter lookups + `$match` + `$unset`: each row joined by the equality lookup on a shallow copy, the
 *   stored rows kept (relation-filter);
 * - `$sort` in MongoDB's order, arrays and mixed types included (sort-rows; mingo's differs); followed by `$limit`,
 *   or by `$skip` and `$limit`: only the first `skip + limit` rows are ordered, none when the rows are already in
 *   order (natural order is `id` order);
 * - `$lookup`s and other per-document stages before a `$limit` run a few rows at a time until the limit is
 *   reached (limited-stream), as MongoDB's stages pass documents on;
 * - `$count` is the number of rows (no document when there is none, as MongoDB: mingo gives a count of 0);
 * - `$unionWith` runs its sub-pipeline with this same runner; a list page's total (`$unionWith` of this collection
 *   through the very same stage objects as this pipeline's first stages, then `$count`) is the number of rows
 *   those stages gave here, which is what running them again would give;
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
    const filter = planRelationFilter(pipeline, i);
    const kept = filter && runRelationFilter(stageContext(rt, true), (name) => rt.collection(name), rows, filter);
    if (filter && kept) {
      rows = kept;
      i = filter.next;
      owned = false;
      continue;
    }
    const stream = planLimitedStream(pipeline, i);
    if (stream) {
      ({ rows, owned } = runLimitedStream(compileStages(cx, stream.stages), rows, owned, stream.limit));
      i = stream.next;
      continue;
    }
    const match = onlyKey(stage, '$match');
    const sort = onlyKey(stage, '$sort');
    const union = unionStage(stage);
    const count = countName(stage);
    if (isObject(match)) {
      rows = rows.filter(compileRowTest(match, rt.options));
    } else if (isObject(sort)) {
      const plan = planSort(rows, sort);
      // A relation sort's `$unset` of its temporary fields between the `$sort` and the page changes no order and
      // no count: it runs on the page's rows only.
      const unset = plan ? tempUnset(cx, pipeline[i + 1]) : null;
      const window = plan ? pageWindow(pipeline, unset ? i + 2 : i + 1) : null;
      if (!plan) {
        rows = mingo(rt, rows, [stage]);
        owned = false;
      } else if (window) {
        if (unset) counts[i + 1] = rows.length;
        rows = firstSorted(rows, plan, window.skip + window.limit).slice(window.skip);
        if (unset) ({ rows, owned } = unset(rows as Row[]));
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
    compiled: createIdentityCache(),
  };
}

/** `{ $unset: [<temporary fields>] }` (the compiler's, pipeline/reserved-fields) compiled by row-stages, else null. */
function tempUnset(cx: StageContext, stage: Stage | undefined): ((rows: Row[]) => RowSet) | null {
  const names = stage ? onlyKey(stage, '$unset') : undefined;
  if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string' && isTempField(n))) return null;
  const run = compileStages(cx, [stage!]);
  return (rows) => run(rows, false, {});
}

function mingo(rt: PipelineRuntime, rows: readonly Row[], stages: Pipeline): Row[] {
  return new Aggregator(stages, rt.options).run(rows as Row[]) as Row[];
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
