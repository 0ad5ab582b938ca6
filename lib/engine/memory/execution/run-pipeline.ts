import { createIdentityCache } from '../../../util/frozen';
import type { Pipeline, Row } from '../../types';
import type { QueryOptions } from '../semantics/mingo-runtime';
import { deepCopy } from '../storage/deep-copy';
import type { MemoryCollection } from '../storage/memory-collection';
import { compileStages, runTopPipeline } from './planner';
import { mingoIndexedLookup } from './fast-paths/mingo-indexed-lookup';
import type { RowSet, StageContext } from './stage-context';

/** What the runner needs from the engine. */
export interface PipelineRuntime {
  /** mingo's options with the engine's indexed `$lookup` in the context (fast-paths/mingo-indexed-lookup). */
  readonly options: QueryOptions;
  /** mingo's options with the manual's `$lookup` (semantics/mingo-context's default): that path switched off. */
  readonly generalOptions: QueryOptions;
  /** The fast paths the engine was told to switch off (MemoryEngineOptions.disabledFastPaths). */
  readonly disabled: ReadonlySet<string>;
  collection(name: string): MemoryCollection;
}

/**
 * Runs an aggregation pipeline on a collection with MongoDB's answer (the general path: mingo with the manual's
 * semantics, semantics/mingo-context), faster where a fast path of the registry takes the stages (planner).
 *
 * @example
 * runPipeline(runtime, runtime.collection('articles'), [{ $match: { _status: 'published' } }, { $sort: { id: 1 } }])
 */
export function runPipeline(rt: PipelineRuntime, col: MemoryCollection, pipeline: Pipeline): Row[] {
  return runOwned(rt, col, pipeline).rows;
}

/**
 * {@link runPipeline}, telling whether the rows are owned (fresh, shared with nothing: handed out uncopied).
 * `readOnly`: the caller never mutates the rows (AggregateOptions.readOnly). `disabled`: the fast paths switched
 * off for this run (the engine's own when not given).
 */
export function runOwned(rt: PipelineRuntime, col: MemoryCollection, pipeline: Pipeline, readOnly = false, disabled: ReadonlySet<string> = rt.disabled): RowSet {
  return runTopPipeline(stageContext(rt, readOnly, disabled), (name) => rt.collection(name), col, pipeline);
}

/** The stage contexts of each runtime, by set of fast paths switched off and read-only-ness, with what they compiled. */
const contexts = new WeakMap<PipelineRuntime, Map<string, StageContext>>();

function stageContext(rt: PipelineRuntime, readOnly: boolean, disabled: ReadonlySet<string>): StageContext {
  let byKey = contexts.get(rt);
  if (!byKey) contexts.set(rt, (byKey = new Map()));
  const key = `${readOnly ? 'r' : 'w'}|${[...disabled].sort().join(',')}`;
  let cx = byKey.get(key);
  if (!cx) {
    cx = newStageContext(rt, readOnly, disabled, () => stageContext(rt, true, disabled));
    if (byKey.size >= 64) byKey.clear();
    byKey.set(key, cx);
  }
  return cx;
}

/**
 * A context: correlated lookups and sub-pipelines compiled by the planner; `readOnly`: rows are copied at the top
 * level only (the caller never mutates them, see AggregateOptions).
 */
function newStageContext(rt: PipelineRuntime, readOnly: boolean, disabled: ReadonlySet<string>, reader: () => StageContext): StageContext {
  const cx: StageContext = {
    options: disabled.has(mingoIndexedLookup.name) ? rt.generalOptions : rt.options,
    readOnly,
    get reader() {
      return readOnly ? cx : reader();
    },
    uses: (name) => !disabled.has(name),
    collection: (name) => rt.collection(name),
    copyRow: readOnly ? (row) => ({ ...row }) : deepCopy,
    copyRows: readOnly ? (rows) => rows.slice() : (rows) => deepCopy(rows as Row[]),
    adoptRows: readOnly ? (rows) => rows : (rows) => deepCopy(rows),
    compiled: createIdentityCache(),
    compile: (stages) => compileStages(cx, stages),
  };
  return cx;
}
