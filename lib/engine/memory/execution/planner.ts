import type { Pipeline, Row } from '../../types';
import { mingoStages } from '../semantics/mingo-runtime';
import type { MemoryCollection } from '../storage/memory-collection';
import type { PartialStage, RowSet, StageContext, StageFn, StagePlan } from './stage-context';
import type { TopRun, TopStep } from './fast-path';
import { byOperator, PIPELINE_PATHS, STAGE_PATHS } from './registry';

const STAGE_PATHS_BY_OPERATOR = byOperator(STAGE_PATHS);
const PIPELINE_PATHS_BY_OPERATOR = byOperator(PIPELINE_PATHS);
const NONE: readonly never[] = [];

/** The operator of a stage of one key, else ''. */
function operatorOf(stage: Record<string, unknown> | undefined): string {
  const keys = stage ? Object.keys(stage) : [];
  return keys.length === 1 ? keys[0]! : '';
}

/**
 * The planner: for each stage, the fast paths of the registry that take it, in order, then the general path
 * (mingo with the manual's semantics, one stage at a time: stages are independent transforms of the row stream).
 * A fast path that declines a particular input hands it to the next one. What it compiles from a frozen stage
 * object is kept with it (StageContext.compiled).
 *
 * @example
 * compileStages(cx, [{ $match: { _status: 'published' } }, { $sort: { id: 1 } }])(rows, false, {})
 */
export function compileStages(cx: StageContext, stages: Pipeline): StageFn {
  const plans = stages.map((stage) => stagePlan(cx, stage));
  if (plans.length === 1) return plans[0]!.run;
  return (rows, owned, vars) => {
    let set: RowSet = { rows: rows as Row[], owned };
    for (const plan of plans) set = plan.run(set.rows, set.owned, vars);
    return set;
  };
}

/** The plan of one stage object: kept with it when it is frozen. */
export function stagePlan(cx: StageContext, stage: Record<string, unknown>): StagePlan {
  return cx.compiled.get(stage, () => planStage(cx, stage));
}

function planStage(cx: StageContext, stage: Record<string, unknown>): StagePlan {
  const general: StageFn = (rows, _owned, vars) => ({ rows: mingoStages(cx.options, [stage], rows, vars), owned: false });
  const paths = (STAGE_PATHS_BY_OPERATOR.get(operatorOf(stage)) ?? NONE).filter((path) => cx.uses(path.name));
  if (paths.length === 0) return { run: general };
  // Each path compiles the stage when first asked: a later one only once the earlier ones declined or did not take it.
  const compiled: (PartialStage | null | undefined)[] = [];
  const taken = (i: number): PartialStage | null => (compiled[i] === undefined ? (compiled[i] = paths[i]!.accepts(stage, cx)) : compiled[i]!);
  return {
    run: (rows, owned, vars) => {
      for (let i = 0; i < paths.length; i++) {
        const out = taken(i)?.(rows, owned, vars) ?? null;
        if (out) return out;
      }
      // Every stage a fast path takes gives no row for no row in (mingo is not started).
      return rows.length === 0 && compiled.some((fn) => fn) ? { rows: [], owned: true } : general(rows, owned, vars);
    },
  };
}

/**
 * The steps that may run the stages from one position of a top-level pipeline: pipeline paths, then the stage's
 * plan (planned only when no step takes the rows: a first `$match` is the indexed-match step's, every request).
 */
interface Position {
  readonly steps: readonly TopStep[];
  stage?: StagePlan;
}

/** A top-level pipeline planned position by position as the run reaches them (kept with a frozen pipeline). */
interface TopPlan {
  readonly positions: (Position | undefined)[];
}

const topPlans = new WeakMap<StageContext, WeakMap<Pipeline, TopPlan>>();

function topPlan(cx: StageContext, pipeline: Pipeline): TopPlan {
  if (!Object.isFrozen(pipeline)) return { positions: [] };
  let byPipeline = topPlans.get(cx);
  if (!byPipeline) topPlans.set(cx, (byPipeline = new WeakMap()));
  let plan = byPipeline.get(pipeline);
  if (!plan) byPipeline.set(pipeline, (plan = { positions: [] }));
  return plan;
}

function position(cx: StageContext, pipeline: Pipeline, plan: TopPlan, at: number): Position {
  let found = plan.positions[at];
  if (!found) plan.positions[at] = found = keptPosition(cx, pipeline, at) ?? planPosition(cx, pipeline, at);
  return found;
}

function planPosition(cx: StageContext, pipeline: Pipeline, at: number): Position {
  const steps: TopStep[] = [];
  for (const path of PIPELINE_PATHS_BY_OPERATOR.get(operatorOf(pipeline[at])) ?? NONE) {
    const step = cx.uses(path.name) ? path.accepts(pipeline, at, cx) : null;
    if (step) steps.push(step);
  }
  return { steps };
}

/** A position planned for the stages from `at` on (those very objects), kept with the stage at `at`. */
interface KeptPosition {
  readonly at: number;
  readonly stages: Pipeline;
  readonly position: Position;
}

const keptPositions = new WeakMap<StageContext, WeakMap<object, KeptPosition>>();

/**
 * The position `at` of a pipeline that is not frozen but whose stages from `at` on are frozen objects shared by
 * many reads (a findOne's: its first `$match` names the document, its populate and projection are compiled once
 * per query, documents/read-documents): planned once and kept with the stage at `at`, for that position and those
 * very stages. Only where every pipeline path of the stage's operator reads the stages from its position on
 * (PipelinePath.readsEarlierStages); undefined otherwise, or for a frozen pipeline (planned with it, topPlan).
 */
function keptPosition(cx: StageContext, pipeline: Pipeline, at: number): Position | undefined {
  const stage = pipeline[at];
  if (Object.isFrozen(pipeline) || !stage || !Object.isFrozen(stage)) return undefined;
  const paths = PIPELINE_PATHS_BY_OPERATOR.get(operatorOf(stage)) ?? NONE;
  if (paths.some((path) => path.readsEarlierStages)) return undefined;
  for (let i = at + 1; i < pipeline.length; i++) if (!Object.isFrozen(pipeline[i])) return undefined;
  let byStage = keptPositions.get(cx);
  if (!byStage) keptPositions.set(cx, (byStage = new WeakMap()));
  const kept = byStage.get(stage);
  if (kept && kept.at === at && kept.stages.length === pipeline.length - at && kept.stages.every((s, i) => s === pipeline[at + i])) return kept.position;
  const position = planPosition(cx, pipeline, at);
  byStage.set(stage, { at, stages: pipeline.slice(at), position });
  return position;
}

/**
 * Runs a top-level pipeline on `collection`: at each position, the first pipeline path that takes the stages
 * there and does not decline the rows, else the stage's own plan.
 *
 * @example
 * runTopPipeline(cx, collections, collections('articles'), [{ $match: { _status: 'published' } }, { $count: 'n' }])
 */
export function runTopPipeline(cx: StageContext, collections: (name: string) => MemoryCollection, collection: MemoryCollection, pipeline: Pipeline): RowSet {
  const plan = topPlan(cx, pipeline);
  const top: TopRun = {
    collection,
    pipeline,
    counts: [],
    runOn: (name, sub) => runTopPipeline(cx, collections, collections(name), sub),
  };
  let set: RowSet = { rows: collection.all() as Row[], owned: false };
  let i = 0;
  while (i < pipeline.length) {
    top.counts[i] = set.rows.length;
    const at = position(cx, pipeline, plan, i);
    let out: RowSet | null = null;
    for (const step of at.steps) {
      out = step.run(set, top);
      if (out) {
        i = step.next;
        break;
      }
    }
    if (!out) {
      at.stage ??= stagePlan(cx, pipeline[i]!);
      out = at.stage.run(set.rows, set.owned, {});
      i++;
    }
    set = out;
  }
  return set;
}
