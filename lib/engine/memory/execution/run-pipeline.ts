import { createIdentityCache } from '../../../util/frozen';
import type { Pipeline, Row } from '../../types';
import type { QueryOptions } from '../semantics/mingo-runtime';
import { deepCopy } from '../storage/deep-copy';
import type { MemoryCollection } from '../storage/memory-collection';
import { compileStages, runTopPipeline } from './planner';
import { mingoIndexedLookup } from './fast-paths/mingo-indexed-lookup';
import { shallowCopy } from './shallow-copy';
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

/**
 * The stage contexts of each runtime, with what they compiled: the engine's own (writer, reader), and those of
 * other sets of fast paths switched off, by set and read-only-ness.
 */
const contexts = new WeakMap<PipelineRuntime, { own: [StageContext | undefined, StageContext | undefined]; others: Map<string, StageContext> }>();

function stageContext(rt: PipelineRuntime, readOnly: boolean, disabled: ReadonlySet<string>): StageContext {
  let kept = contexts.get(rt);
  if (!kept) contexts.set(rt, (kept = { own: [undefined, undefined], others: new Map() }));
  // The engine's own fast paths (every aggregate): found without building a key.
  if (disabled === rt.disabled) return (kept.own[readOnly ? 1 : 0] ??= newStageContext(rt, readOnly, disabled, () => stageContext(rt, true, disabled)));
  const key = `${readOnly ? 'r' : 'w'}|${[...disabled].sort().join(',')}`;
  let cx = kept.others.get(key);
  if (!cx) {
    cx = newStageContext(rt, readOnly, disabled, () => stageContext(rt, true, disabled));
    if (kept.others.size >= MAX_OTHER_CONTEXTS) kept.others.clear();
    kept.others.set(key, cx);
  }
  return cx;
}

/** Contexts kept for other sets of fast paths (aggregateVariants: two per variant) before they are dropped. */
const MAX_OTHER_CONTEXTS = 256;

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
    copyRow: readOnly ? shallowCopy : deepCopy,
    copyRows: readOnly ? (rows) => rows.slice() : (rows) => deepCopy(rows as Row[]),
    adoptRows: readOnly ? (rows) => rows : (rows) => deepCopy(rows),
    compiled: createIdentityCache(),
    compile: (stages) => compileStages(cx, stages),
  };
  return cx;
}
