import type { Filter, Pipeline, Row } from '../../types';
import { equalityFilter, localValues } from '../semantics/equality-lookup';
import { isIndexable } from '../storage/field-index';
import type { MemoryCollection } from '../storage/memory-collection';
import { isObject, isRowFilter, onlyKey } from './eligibility';
import { planLookup } from './lookup-shapes';
import { compileRowTest, type RowTest } from './match-rows';
import type { StageContext } from './stage-context';

/**
 * Whether an equality `$lookup` joins at least one row to `row`: all a `$match` that reads the joined array's size
 * only needs (relation-filter-elements). Fresh per run: it remembers each target row's verdict and each key's.
 */
export type SemiJoin = (row: Row) => boolean;

/** A compiled semi-join: `start()` once per run gives the test, with memories that last that run only. */
export interface SemiJoinPlan {
  start(): SemiJoin;
  /** Once per run: the joined rows of a row that reach the sub-pipeline's tail (stored rows, in natural order). */
  startRows(): (row: Row) => Row[];
  /** The stages after the last `$match` / `$lookup` (`$limit`, `$project`, `$unset`), to run on those rows. */
  readonly tail: Pipeline;
}

/** What a non-empty joined array holds for a `$match` that reads only its size. */
export const NON_EMPTY: Row = Object.freeze({});

/**
 * The `$lookup` of a relation filter (pipeline/compile-filters) as a semi-join: which rows it joins anything to,
 * without building a joined array, nested relation filters included. The stage must be an equality `$lookup`
 * without `let` whose sub-pipeline is `$match`es and nested `$lookup`s of the same kind, then only stages that
 * keep every row (`$limit` of at least one row, `$project`, `$unset`), each `$match` reading a nested lookup's
 * array only by `{ <as>: { $size: 0 } }` (under `$and` / `$or` / `$nor`). Then the joined array is empty exactly
 * when no row of the index probe (MongoDB's equality of `localField` and `foreignField`, semantics/equality-lookup)
 * passes every `$match` with each nested array standing for its emptiness: the sub-pipeline's stages are row-wise
 * (each keeps or drops a row by itself) and its `$limit`s come after its last `$match`.
 *
 * Why: run as stages, a chain of relation filters `[author][articles][author][articles]...` joins, for every row,
 * every row of every level again (each level's rows times the next level's fan-out: 12.7 s for five pairs on 147
 * articles); here a target row is tested once per run whichever rows join it, so a run costs at most the index
 * probes of each level's distinct keys plus one test per row reached. Null for any other shape.
 *
 * @example
 * compileSemiJoin(cx, { from: 'authors', localField: 'author', foreignField: 'documentId',
 *   pipeline: [{ $match: { name: 'Ann' } }, { $limit: 1 }, { $project: { _id: 1 } }], as: '__rf1' })?.start()(article)
 */
export function compileSemiJoin(cx: StageContext, stage: unknown): SemiJoinPlan | null {
  const expr = onlyKey(stage, '$lookup');
  if (!isObject(expr)) return null;
  const plan = planLookup(expr as never);
  const from = typeof expr.from === 'string' ? cx.collection(expr.from) : undefined;
  const letSpec = expr.let;
  if (plan?.kind !== 'equality' || !from || (letSpec !== undefined && !(isObject(letSpec) && Object.keys(letSpec).length === 0))) return null;
  const pipeline = (expr.pipeline ?? []) as Pipeline;
  const steps = compileSteps(cx, pipeline);
  if (!steps) return null;
  const { localField, foreignField } = plan;
  const index = from.index(foreignField);
  return {
    tail: pipeline.slice(steps.length),
    startRows() {
      const survives = startSteps(steps);
      return (row) => probe(cx, from, index, foreignField, localValues(row, localField)).filter(survives);
    },
    start() {
      const survives = startSteps(steps);
      const byKey = new Map<unknown, boolean>();
      const joinsAny = (values: unknown[]): boolean => probe(cx, from, index, foreignField, values).some(survives);
      return (row) => {
        const values = localValues(row, localField);
        if (values.length !== 1 || !isIndexable(values[0])) return joinsAny(values);
        const key = values[0];
        let verdict = byKey.get(key);
        if (verdict === undefined) byKey.set(key, (verdict = joinsAny(values)));
        return verdict;
      };
    },
  };
}

/** Inside relation-filter-elements: a relation filter's `$lookup` answered as a semi-join ({@link compileSemiJoin}). */
export const RELATION_FILTER_SEMI_JOIN = 'relation-filter-semi-join';

const plans = new WeakMap<StageContext, WeakMap<object, SemiJoinPlan | null>>();

/**
 * {@link compileSemiJoin} when the path relation-filter-semi-join is on, else null; kept per context for a frozen
 * stage (the read path freezes the pipelines it keeps per query), as StageContext.compiled keeps compiled stages.
 */
export function semiJoinOf(cx: StageContext, stage: Record<string, unknown>): SemiJoinPlan | null {
  if (!cx.uses(RELATION_FILTER_SEMI_JOIN)) return null;
  if (!Object.isFrozen(stage)) return compileSemiJoin(cx, stage);
  let kept = plans.get(cx);
  if (!kept) plans.set(cx, (kept = new WeakMap()));
  let plan = kept.get(stage);
  if (plan === undefined) kept.set(stage, (plan = compileSemiJoin(cx, stage)));
  return plan;
}

/** The rows of `from` a `$lookup` joins to local values `values` (exact: the index, else a scan with the server's query). */
function probe(cx: StageContext, from: MemoryCollection, index: ReturnType<MemoryCollection['index']>, foreignField: string, values: unknown[]): readonly Row[] {
  return index.selectEqual(values) ?? from.all().filter(compileRowTest(equalityFilter(foreignField, values), cx.options));
}

/** One stage of a semi-join's sub-pipeline before its row-keeping tail: a row test, or a nested semi-join into `as`. */
type Step = { readonly kind: 'match'; readonly test: RowTest; readonly fields: ReadonlySet<string> | null } | { readonly kind: 'join'; readonly as: string; readonly join: SemiJoinPlan };

/**
 * Stages after the last `$match` that keep every row they are given (at least one of them, for a `$limit`) and
 * that are valid whatever the rows: a `$project` of fields included or excluded, an `$unset` of fields.
 */
function keepsRows(stage: unknown): boolean {
  if (!isObject(stage) || Object.keys(stage).length !== 1) return false;
  const n = stage.$limit;
  if (n !== undefined) return typeof n === 'number' && Number.isInteger(n) && n >= 1;
  const project = stage.$project;
  if (isObject(project)) {
    // Inclusions or exclusions, not both (`_id` aside): MongoDB refuses a mixed projection.
    const kinds = new Set(Object.entries(project).filter(([k]) => k !== '_id').map(([, v]) => Boolean(v)));
    return Object.keys(project).length > 0 && kinds.size <= 1 && Object.values(project).every((v) => v === 0 || v === 1 || typeof v === 'boolean');
  }
  const unset = stage.$unset;
  return typeof unset === 'string' || (Array.isArray(unset) && unset.length > 0 && unset.every((f) => typeof f === 'string'));
}

/** The steps of a sub-pipeline (see {@link compileSemiJoin}), or null when it has another shape. */
function compileSteps(cx: StageContext, pipeline: unknown): Step[] | null {
  if (!Array.isArray(pipeline)) return null;
  const steps: Step[] = [];
  const temps = new Set<string>();
  let tail = false;
  for (const stage of pipeline as Pipeline) {
    const match = onlyKey(stage, '$match');
    if (tail || (match === undefined && onlyKey(stage, '$lookup') === undefined)) {
      if (!keepsRows(stage)) return null;
      tail = true;
    } else if (isObject(match)) {
      if (!isRowFilter(match) || !readsTempsBySize(match, temps)) return null;
      steps.push({ kind: 'match', test: compileRowTest(match, cx.options), fields: temps.size > 0 ? topFields(match) : null });
    } else {
      const lookup = onlyKey(stage, '$lookup') as Record<string, unknown>;
      const join = compileSemiJoin(cx, stage);
      const as = lookup.as;
      const local = typeof lookup.localField === 'string' ? lookup.localField.split('.')[0]! : '';
      if (!join || typeof as !== 'string' || as.includes('.') || as.startsWith('$') || temps.has(local)) return null;
      temps.add(as);
      steps.push({ kind: 'join', as, join });
    }
  }
  return steps;
}

/** Tests a stored row against the steps once per run (a verdict kept per row): true when it reaches the tail. */
function startSteps(steps: readonly Step[]): (row: Row) => boolean {
  if (steps.every((s) => s.kind === 'match')) {
    const tests = steps.map((s) => (s as { test: RowTest }).test);
    return (row) => tests.every((test) => test(row));
  }
  const joins = steps.map((s) => (s.kind === 'join' ? s.join.start() : null));
  const verdicts = new Map<Row, boolean>();
  return (row) => {
    let verdict = verdicts.get(row);
    if (verdict !== undefined) return verdict;
    verdict = true;
    const temps: Row = {};
    for (let i = 0; i < steps.length && verdict; i++) {
      const step = steps[i]!;
      if (step.kind === 'join') temps[step.as] = joins[i]!(row) ? [NON_EMPTY] : [];
      else verdict = step.test(seenRow(row, temps, step.fields));
    }
    verdicts.set(row, verdict);
    return verdict;
  };
}

/** The row as a `$match` after nested lookups sees it: its own fields (those the filter reads, when known), then the joined arrays. */
function seenRow(row: Row, temps: Row, fields: ReadonlySet<string> | null): Row {
  if (Object.keys(temps).length === 0) return row;
  const seen: Row = {};
  if (fields) {
    for (const field of fields) if (Object.hasOwn(row, field)) seen[field] = row[field];
  } else {
    Object.assign(seen, row);
  }
  return Object.assign(seen, temps);
}

/**
 * True when every condition of `filter` on one of `temps` is `{ $size: 0 }` on the field itself (under `$and`,
 * `$or`, `$nor`), and no other top-level operator appears (`$expr`...).
 */
export function readsTempsBySize(filter: Filter, temps: ReadonlySet<string>): boolean {
  return Object.entries(filter).every(([key, value]) => {
    if (key === '$and' || key === '$or' || key === '$nor') return Array.isArray(value) && value.every((f) => isObject(f) && readsTempsBySize(f, temps));
    if (key.startsWith('$')) return false;
    if (!temps.has(key.split('.')[0]!)) return true;
    return temps.has(key) && isObject(value) && Object.keys(value).length === 1 && value.$size === 0;
  });
}

/** The top-level fields a filter of {@link readsTempsBySize}'s shape reads (`$and` / `$or` / `$nor` crossed). */
function topFields(filter: Filter, out = new Set<string>()): Set<string> {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or' || key === '$nor') for (const f of value as Filter[]) topFields(f, out);
    else out.add(key.split('.')[0]!);
  }
  return out;
}

/**
 * The rows of `rows` a relation filter's stages (`$lookup`s into `temps`, then `$match`) keep, each lookup a
 * semi-join tested on the row itself (a `localField` through components too): the path for the shapes
 * relation-filter-elements does not take. Undefined when a lookup or the `$match` has another shape (or the path is
 * off), null when a row already holds a temp field (the `$unset` after them would take it away).
 *
 * @example
 * keptBySemiJoins(cx, rows, [{ $lookup: { from: 'authors', localField: 'seo.author', foreignField: 'documentId', pipeline: [...], as: '__rf1' } }],
 *   { $nor: [{ __rf1: { $size: 0 } }] }, ['__rf1'])
 */
export function keptBySemiJoins(cx: StageContext, rows: readonly Row[], lookups: Pipeline, match: Filter, temps: readonly string[]): Row[] | null | undefined {
  const names = new Set(temps);
  if (!isRowFilter(match) || !readsTempsBySize(match, names)) return undefined;
  const plans = lookups.map((stage) => semiJoinOf(cx, stage));
  if (!plans.every((plan): plan is SemiJoinPlan => plan !== null)) return undefined;
  if (lookups.some((stage) => names.has(String((stage.$lookup as Record<string, unknown>).localField).split('.')[0]!))) return undefined;
  for (const row of rows) for (const temp of temps) if (Object.hasOwn(row, temp)) return null;
  const joins = plans.map((plan) => plan.start());
  const test = compileRowTest(match, cx.options);
  const fields = topFields(match);
  return rows.filter((row) => {
    const joined: Row = {};
    temps.forEach((temp, i) => (joined[temp] = joins[i]!(row) ? [NON_EMPTY] : []));
    return test(seenRow(row, joined, fields));
  });
}
