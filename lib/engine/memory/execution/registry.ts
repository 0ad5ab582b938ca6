import type { FastPath, InnerPath, PipelinePath, StagePath } from './fast-path';
import { batchedLookup, batchedTail } from './fast-paths/batched-lookup';
import { count } from './fast-paths/count';
import { documentNumber } from './fast-paths/document-number';
import { firstOrNull } from './fast-paths/first-or-null';
import { indexedLookup } from './fast-paths/indexed-lookup';
import { indexedMatch } from './fast-paths/indexed-match';
import { keysetPage } from './fast-paths/keyset-page';
import { limit } from './fast-paths/limit';
import { limitedStream } from './fast-paths/limited-stream';
import { minMaxKey } from './fast-paths/min-max-key';
import { mingoIndexedLookup } from './fast-paths/mingo-indexed-lookup';
import { pageTotal } from './fast-paths/page-total';
import { projectFields } from './fast-paths/project-fields';
import { projectRefs } from './fast-paths/project-refs';
import { relationFilter, relationFilterElements, relationFilterSemiJoin } from './fast-paths/relation-filter';
import { rowMatch } from './fast-paths/row-match';
import { semiJoinLookup } from './fast-paths/semi-join-lookup';
import { slimAddFields } from './fast-paths/slim-add-fields';
import { sort } from './fast-paths/sort';
import { sortedPage } from './fast-paths/sorted-page';
import { unionPipeline } from './fast-paths/union-pipeline';
import { unset } from './fast-paths/unset';
import { unwind } from './fast-paths/unwind';
import { variableMatch } from './fast-paths/variable-match';

/**
 * Every fast path of the memory engine, in the order the planner asks them. At each position of a top-level
 * pipeline the pipeline paths come first (they take several stages, or read the collection); then, in any
 * pipeline, the stage paths of that stage; then the general path (mingo, semantics/mingo-context). A new fast
 * path is a file in fast-paths/ and a line here; the fast-paths-off suite then runs every pipeline without it.
 */
export const PIPELINE_PATHS: readonly PipelinePath[] = [
  indexedMatch, relationFilter, keysetPage, limitedStream, sortedPage, count, pageTotal, unionPipeline,
];

/** The stage paths, in order (for one stage, the first that takes it and does not decline the rows runs it). */
export const STAGE_PATHS: readonly StagePath[] = [
  rowMatch, variableMatch, sort, firstOrNull, minMaxKey, slimAddFields, unset, projectFields, projectRefs, limit,
  semiJoinLookup, batchedLookup, indexedLookup, documentNumber, unwind,
];

/** Optimisations inside other paths, switched off by name like the others. */
export const INNER_PATHS: readonly InnerPath[] = [relationFilterElements, relationFilterSemiJoin, mingoIndexedLookup, batchedTail];

/** The paths that may take a stage (or a run starting at a stage) of each operator, in registry order. */
export function byOperator<P extends PipelinePath | StagePath>(paths: readonly P[]): ReadonlyMap<string, readonly P[]> {
  const out = new Map<string, P[]>();
  for (const path of paths) for (const op of path.operators) out.set(op, [...(out.get(op) ?? []), path]);
  return out;
}

/** Every fast path. */
export const FAST_PATHS: readonly FastPath[] = [...PIPELINE_PATHS, ...STAGE_PATHS, ...INNER_PATHS];

/** The names of every fast path, for `disabledFastPaths` (memory engine option) and the fast-paths-off suite. */
export const FAST_PATH_NAMES: readonly string[] = FAST_PATHS.map((path) => path.name);
