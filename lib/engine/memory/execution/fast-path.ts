import type { Pipeline } from '../../types';
import type { MemoryCollection } from '../storage/memory-collection';
import type { PartialStage, RowSet, StageContext } from './stage-context';

/**
 * A fast path: a faster way to run some stages, with exactly the answer of the general path (mingo with the
 * manual's semantics, semantics/mingo-context). Each lives in a file of its own under fast-paths/ and is listed
 * in registry.ts; the planner asks them in the registry's order. Switching any of them off (the memory engine's
 * `disabledFastPaths`) must change no answer: every aggregate of the HTTP suites and the corpus replay runs with
 * each path switched off in turn and must give the same answer (__tests__/helpers/fast-path-check.ts), and
 * __tests__/engine/memory/fast-paths-off.test.ts proves that check can fail and reaches every path.
 */
export type FastPath = StagePath | PipelinePath | InnerPath;

/** A fast path for one stage, in any pipeline (the top-level one, `$lookup` sub-pipelines, its own stages). */
export interface StagePath {
  readonly name: string;
  readonly kind: 'stage';
  /** The stage operators it may take (the planner asks it only for those). */
  readonly operators: readonly string[];
  /**
   * The stage compiled for this path, or null when the path does not take this stage. The compiled function may
   * still decline a particular input (null): the planner then asks the next path that took the stage, and mingo last.
   */
  accepts(stage: Record<string, unknown>, cx: StageContext): PartialStage | null;
}

/**
 * A fast path over the top-level pipeline of an aggregate: it may take several stages from `at`, read the
 * collection the aggregate runs on and what the run counted so far ({@link TopRun}).
 */
export interface PipelinePath {
  readonly name: string;
  readonly kind: 'pipeline';
  /** The operators of the first stage it may take (the planner asks it only there). */
  readonly operators: readonly string[];
  /**
   * Whether it reads stages before `at` (the planner then plans its positions only with a frozen pipeline);
   * otherwise what it accepts depends only on `at`, the stages from `at` on and the context.
   */
  readonly readsEarlierStages?: boolean;
  accepts(pipeline: Pipeline, at: number, cx: StageContext): TopStep | null;
}

/**
 * An optimisation inside another fast path or inside the general path (named so that it can be switched off and
 * proved like the others): `within` names where; that code asks `cx.uses(name)`.
 */
export interface InnerPath {
  readonly name: string;
  readonly kind: 'inner';
  readonly within: string;
}

/** The stages a {@link PipelinePath} took: those before `next`, run on the rows of the stage before them. */
export interface TopStep {
  /** The index of the first stage after the ones it runs. */
  readonly next: number;
  /** Their result, or null to decline this input (the planner then runs the same stages without this path). */
  run(input: RowSet, top: TopRun): RowSet | null;
}

/** What a top-level run offers its pipeline paths. */
export interface TopRun {
  readonly collection: MemoryCollection;
  readonly pipeline: Pipeline;
  /** `counts[k]`: how many rows reached stage k (set by the planner before each step; a step may set those inside it). */
  readonly counts: number[];
  /** Runs `pipeline` as a top-level pipeline of the collection `name` (a `$unionWith`'s). */
  runOn(name: string, pipeline: Pipeline): RowSet;
}
