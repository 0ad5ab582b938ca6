import { ReadLimitError, type Engine, type Filter, type Pipeline } from '../engine/types';
import { compileFindRows, compileJoinCountPlan, type FanOutStatistic, compileJoinCountStep, joinCountRows, type JoinCountNode, type JoinCountPair, type JoinCountPlan } from '../pipeline';
import { createIdentityCache, deepFreeze } from '../util/frozen';
import { pageRows } from '../query';
import type { Query } from '../query/types';
import type { ContentType, Registry } from '../schema';
import { maxFanOut, scopeCount } from './join-statistics';
import { loggedRead } from './log';

/** The rows a read starts from: a list page (`one: false`, the page size bounds them) or one row. */
export interface ReadRows {
  readonly one: boolean;
  readonly match?: Filter;
}

const plans = createIdentityCache<Query, { registry: Registry; ct: ContentType; plan: JoinCountPlan }>();

/** The read's join count plan, kept with a frozen query (lib/util/frozen, as read-documents' CompiledRead). */
function planFor(registry: Registry, ct: ContentType, query: Query & { maxJoinedRows: number }): JoinCountPlan {
  // Frozen, its stages are compiled once by the memory engine (execution/planner, StageContext.compiled).
  const make = () => ({ registry, ct, plan: Object.isFrozen(query) ? deepFreeze(compileJoinCountPlan(registry, ct, query)) : compileJoinCountPlan(registry, ct, query) });
  return plans.get(query, make, (kept) => kept.registry === registry && kept.ct === ct).plan;
}

/**
 * Refuses, BEFORE the read runs, a read whose populate joins more rows than `query.maxJoinedRows`, by throwing the
 * ReadLimitError the read itself would (documents/populate-budget answers it with the 400): on MongoDB the server
 * would otherwise build the product of the levels' fan-outs before the router could count a row (each to-many join
 * is only bounded by its own `$limit`). Three tiers, so that a legitimate read stays ONE aggregate:
 * 1. at most one join that fans out on every populate path: nothing to do (the page size times one join's
 *    `$limit` bounds the work, and the read counts every row as before);
 * 2. otherwise an upper bound from statistics kept per engine (join-statistics): the read's rows are at most its
 *    page and the rows of its collection (one for a findOne, or a filter on a unique value); each join that fans
 *    out yields per row at most the rows of its target collection in scope, and where that scope holds at most
 *    `maxJoinedRows` rows at most its largest fan-out (the longest relation array, the most rows holding one key).
 *    Within the budget, nothing more to do;
 * 3. otherwise the join count ({@link countJoins}): small aggregates, one per populated level reached, that count
 *    the rows the populate would join and stop at the first level over the budget.
 * The read's own meters stay the exact backstop (the embedded engine's row meter, populateMeter on MongoDB).
 *
 * @example
 * await checkJoinBudget(registry, engine, article, query, { one: false });
 */
export async function checkJoinBudget(registry: Registry, engine: Engine, ct: ContentType, query: Query, rows: ReadRows): Promise<void> {
  const max = query.maxJoinedRows;
  if (max === undefined || !joinBudgetApplies(registry, ct, query)) return;
  const plan = planFor(registry, ct, query as Query & { maxJoinedRows: number });
  const size = rows.one || plan.oneRow ? 1 : Math.min(pageSize(query), await scopeCount(engine, plan.collection, plan.scope));
  if ((await joinBound(engine, plan.nodes, size, max, false)) <= max || (await joinBound(engine, plan.nodes, size, max, true)) <= max) return;
  const first = compileFindRows(registry, ct, query, rows);
  await countJoins(engine, plan, first, max, !rows.one);
}

/**
 * Whether {@link checkJoinBudget} has anything to check for this read (no engine read to answer): false without
 * two joins that fan out on one populate path (tier 1, most reads), which then need not wait for it.
 *
 * @example
 * joinBudgetApplies(registry, article, query) // false for populate=*
 */
export function joinBudgetApplies(registry: Registry, ct: ContentType, query: Query): boolean {
  if (query.maxJoinedRows === undefined || Object.keys(query.populate).length === 0) return false;
  return fanOutDepth(planFor(registry, ct, query as Query & { maxJoinedRows: number }).nodes) >= 2;
}

function pageSize(query: Query): number {
  return pageRows(query.pagination);
}

/**
 * The most joins that may fan out on one populate path (JoinCountNode.one false), e.g. 2 for
 * `categories.articles`, 1 for `categories.parent.parent`.
 *
 * @example
 * fanOutDepth(compileJoinCountPlan(registry, article, query).nodes)
 */
export function fanOutDepth(nodes: readonly Pick<BoundNode, 'one' | 'children'>[]): number {
  let depth = 0;
  for (const node of nodes) depth = Math.max(depth, (node.one ? 0 : 1) + fanOutDepth(node.children));
  return depth;
}

/**
 * An upper bound of the rows the populate of `rows` parent rows joins: a to-one join at most one per row, any
 * other at most its per-parent `limit` (a paged populate) and the rows of its collection in its scope, with `statistics` at most its fan-out statistic when its
 * collection is small enough to compute it (join-statistics), and at most `max + 1` (its `$limit`). Stops asking
 * once over `max`. (checkJoinBudget tries the counts alone first: they cost no aggregate.)
 *
 * @example
 * await joinBound(engine, plan.nodes, 25, 10_000, true)
 */
export async function joinBound(engine: Engine, nodes: readonly BoundNode[], rows: number, max: number, statistics: boolean): Promise<number> {
  let total = 0;
  const walk = async (level: readonly BoundNode[], parents: number): Promise<boolean> => {
    for (const node of level) {
      const joined = parents * (node.one ? 1 : await fanOutBound(engine, node, max, statistics));
      total += joined;
      if (total > max) return false;
      if (joined > 0 && !(await walk(node.children, joined))) return false;
    }
    return true;
  };
  await walk(nodes, rows);
  return total;
}

/** What {@link joinBound} reads of a join: a populate's (JoinCountNode) or a relation filter's (FilterJoinNode). */
export interface BoundNode {
  readonly collection: string;
  readonly scope: Filter;
  readonly one: boolean;
  readonly fanOut?: FanOutStatistic;
  /** The most rows one row keeps here (a paged populate's `limit`), when given. */
  readonly limit?: number;
  readonly children: readonly BoundNode[];
}

/** The most rows one row may join through `node` (not a to-one join), at most its `limit`: see {@link joinBound}. */
async function fanOutBound(engine: Engine, node: BoundNode, max: number, statistics: boolean): Promise<number> {
  if (node.limit !== undefined && node.limit <= 1) return node.limit;
  const rows = Math.min(max + 1, node.limit ?? Infinity, await scopeCount(engine, node.collection, node.scope));
  const most = statistics && node.fanOut && rows > 1 ? await maxFanOut(engine, node.fanOut, max) : undefined;
  return most === undefined ? rows : Math.min(rows, most);
}

interface Step {
  readonly collection: string;
  readonly rows: Pipeline;
  /** How many times each parent row (by `id`) appears in the response; null for the read's own rows (once each). */
  readonly weights: ReadonlyMap<number, number> | null;
  readonly children: readonly JoinCountNode[];
  readonly list: boolean;
}

/**
 * The join count: counts the rows the populate of a read joins, each as many times as it would appear in the
 * response (its weight: the sum of its parents' weights), level after level, and throws a ReadLimitError naming
 * the path of the join that takes the total over `max`, else returns the total. Each step is ONE aggregate from
 * the parent rows (the read's own rows first, then the rows of one join by `id`, each once however many times it
 * appears) through the joins of that populate node ({@link compileJoinCountStep}), which returns at most
 * `max - total + 1` pairs: as
 * every pair adds at least 1, more could only go over. So a step costs the database at most that many joined rows
 * (index probes on the join's foreign field) plus one parent row's joins, and the whole count stops at the first
 * step that goes over. It counts what the embedded engine's row meter counts while it joins (each populate
 * `$lookup`'s rows), so both engines refuse the same reads.
 *
 * @example
 * await countJoins(engine, plan, compileFindRows(registry, article, query, { one: false }), 10_000, true)
 */
export async function countJoins(engine: Engine, plan: JoinCountPlan, first: Pipeline, max: number, list: boolean): Promise<number> {
  let total = 0;
  const steps: Step[] = [{ collection: plan.collection, rows: first, weights: null, children: plan.nodes, list }];
  for (let step = steps.shift(); step; step = steps.shift()) {
    const pipeline = compileJoinCountStep(step.rows, step.children, max - total + 1);
    const { collection } = step;
    // A list's rows may be sorted past MongoDB's 100 MB in-memory limit, as the read's own (read-documents).
    const options = { readOnly: true, ...(step.list ? { allowDiskUse: true } : {}) };
    const pairs = (await loggedRead(collection, pipeline, () => engine.aggregate(collection, pipeline, options))) as unknown as JoinCountPair[];
    const next = step.children.map(() => new Map<number, number>());
    for (const pair of pairs) {
      const n = Number(pair.n); // `includeArrayIndex` is a long on MongoDB (a number with the driver's promoteLongs)
      const c = pair.j.id;
      const weight = step.weights ? (step.weights.get(pair.p) ?? 0) : 1;
      total += weight;
      if (total > max) throw new ReadLimitError('joinedRows', max, step.children[n]!.path);
      if (typeof c === 'number') next[n]!.set(c, (next[n]!.get(c) ?? 0) + weight);
    }
    step.children.forEach((child, n) => {
      const weights = next[n]!;
      if (child.children.length > 0 && weights.size > 0) {
        steps.push({ collection: child.collection, rows: [joinCountRows([...weights.keys()])], weights, children: child.children, list: false });
      }
    });
  }
  return total;
}
