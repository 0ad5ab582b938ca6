import { ReadLimitError, type Engine } from '../engine/types';
import { compileFilterJoins, selectsOneRow, type FilterJoinNode } from '../pipeline';
import { pageRows } from '../query';
import type { PopulateMap, Query, Status } from '../query/types';
import type { ContentType, Registry } from '../schema';
import { UPLOAD_FILE_UID } from '../schema/types';
import { createIdentityCache } from '../util/frozen';
import { fanOutDepth, joinBound } from './join-budget';
import { scopeCount } from './join-statistics';

/**
 * Refuses, BEFORE the read runs, a read whose relation filters may join more rows than `query.maxJoinedRows`, by
 * throwing a ReadLimitError (param `filters`) naming the filter path, which documents/populate-budget answers with
 * a 400 ValidationError. A relation filter is a `$lookup` run on every row of the read's scope (not only its page)
 * before the page is cut (pipeline/compile-filters); nested ones run inside it, for each row it joins. MongoDB runs
 * them as written, so a chain such as `filters[author][articles][author][articles]...` costs the product of the
 * levels' fan-outs (nothing but `maxTimeMS` stopped it); the memory engine answers them as semi-joins
 * (engine/memory/execution/semi-join) but refuses the same reads, so that both engines answer alike. Two tiers:
 * 1. at most one join that fans out on every filter path: nothing to do (each level probes an index once per row
 *    of the level above, at most the rows of the data);
 * 2. otherwise the upper bound of documents/join-budget's joinBound from the engine's statistics (kept until the
 *    next write), starting from the rows of the read's scope (one for a findOne or a filter on a unique value):
 *    over the budget, the read is refused with the path of the join that goes over.
 * The relation filters of its populates are bounded the same way ({@link checkPopulateFilters}).
 *
 * @example
 * await checkFilterBudget(registry, engine, article, query, false) // throws for filters[author][articles][author][articles]... on a large store
 */
export async function checkFilterBudget(registry: Registry, engine: Engine, ct: ContentType, query: Query, one: boolean): Promise<void> {
  const max = query.maxJoinedRows;
  if (max === undefined) return;
  const { nodes, deep, populate } = planFor(registry, ct, query);
  if (deep) {
    const rows = one || selectsOneRow(query.filters) ? 1 : await scopeCount(engine, ct.collectionName, statusScope(ct, query.status));
    if (!(await within(engine, nodes, rows, max))) throw new ReadLimitError('joinedRows', max, await overPath(engine, nodes, rows, max), 'filters');
  }
  await checkPopulateFilters(engine, populate, query, one, max);
}

/**
 * Whether {@link checkFilterBudget} has anything to check for this read (no engine read to answer): false for
 * every read without two fan-out joins on one relation filter path, in its filters or its populates' (most reads),
 * which then need not wait for it.
 *
 * @example
 * filterBudgetApplies(registry, article, query) // false for filters[author][name][$startsWith]=A
 */
export function filterBudgetApplies(registry: Registry, ct: ContentType, query: Query): boolean {
  if (query.maxJoinedRows === undefined) return false;
  const plan = planFor(registry, ct, query);
  return plan.deep || plan.populate.length > 0;
}

/** What checkFilterBudget reads of a query, all of it pure: the relation filters' joins and the populates' bounded ones. */
interface FilterBudgetPlan {
  readonly registry: Registry;
  readonly ct: ContentType;
  readonly nodes: readonly FilterJoinNode[];
  /** Two or more fan-out joins on one path of the read's own filters. */
  readonly deep: boolean;
  readonly populate: readonly PopulateFilter[];
}

const plans = createIdentityCache<Query, FilterBudgetPlan>();

/** The read's plan, kept with a frozen query (lib/util/frozen, as read-documents' CompiledRead): compiled once per query string. */
function planFor(registry: Registry, ct: ContentType, query: Query): FilterBudgetPlan {
  const make = (): FilterBudgetPlan => {
    const nodes = compileFilterJoins(registry, ct, query.filters, query.status);
    return { registry, ct, nodes, deep: fanOutDepth(nodes) >= 2, populate: populateFilters(registry, query.populate, query.status, [], true) };
  };
  return plans.get(query, make, (kept) => kept.registry === registry && kept.ct === ct);
}

/**
 * The relation filters of the read's populates (`populate[articles][filters][author][articles]...`), each run on
 * every candidate row of its join (before the join's `$limit`): those with two or more fan-out joins on one path
 * are bounded as the read's own filters, starting from at most every row of the join's collection in scope for
 * each parent row: the page's rows (one for a findOne) for a populate of the read's rows, the budget's rows for a
 * deeper one (what the populate may join at most). Over the budget, a ReadLimitError naming the populate path.
 */
async function checkPopulateFilters(engine: Engine, populate: readonly PopulateFilter[], query: Query, one: boolean, max: number): Promise<void> {
  const parents = one ? 1 : pageRows(query.pagination);
  for (const found of populate) {
    const rows = (found.top ? parents : max) * (await scopeCount(engine, found.target.collectionName, statusScope(found.target, query.status)));
    if (!(await within(engine, found.nodes, rows, max))) {
      throw new ReadLimitError('joinedRows', max, [...found.path, ...(await overPath(engine, found.nodes, rows, max))], 'populate');
    }
  }
}

interface PopulateFilter {
  readonly path: readonly string[];
  readonly target: ContentType;
  readonly nodes: readonly FilterJoinNode[];
  /** A populate of the read's own rows (through components only). */
  readonly top: boolean;
}

function populateFilters(registry: Registry, map: PopulateMap, status: Status, path: readonly string[], top: boolean): PopulateFilter[] {
  const out: PopulateFilter[] = [];
  for (const [name, node] of Object.entries(map)) {
    const here = [...path, name];
    const attribute = node.attribute;
    if (attribute.kind === 'component') {
      out.push(...populateFilters(registry, node.populate, status, here, top));
    } else if (attribute.kind === 'dynamiczone') {
      for (const sub of Object.values(node.on ?? { all: node })) out.push(...populateFilters(registry, sub.populate, status, here, top));
    } else {
      const target = registry.contentType(attribute.kind === 'media' ? UPLOAD_FILE_UID : attribute.target);
      const nodes = node.filters ? compileFilterJoins(registry, target, node.filters, status) : [];
      if (fanOutDepth(nodes) >= 2) out.push({ path: here, target, nodes, top });
      out.push(...populateFilters(registry, node.populate, status, here, false));
    }
  }
  return out;
}

/** Whether joinBound, from the counts alone then with the fan-out statistics, keeps `nodes` within `max`. */
async function within(engine: Engine, nodes: readonly FilterJoinNode[], rows: number, max: number): Promise<boolean> {
  return (await joinBound(engine, nodes, rows, max, false)) <= max || (await joinBound(engine, nodes, rows, max, true)) <= max;
}

function statusScope(ct: ContentType, status: Status): Record<string, unknown> {
  return ct.draftAndPublish ? { _status: status } : {};
}

/** The path of the first join whose bound takes the total over `max` (the deepest fan-out when none alone does). */
async function overPath(engine: Engine, nodes: readonly FilterJoinNode[], rows: number, max: number): Promise<readonly string[]> {
  let deepest: readonly string[] = nodes[0]?.path ?? [];
  const walk = async (level: readonly FilterJoinNode[], parents: number): Promise<readonly string[] | null> => {
    for (const node of level) {
      const joined = await joinBound(engine, [{ ...node, children: [] }], parents, max, true);
      if (joined > max) return node.path;
      if (node.path.length > deepest.length) deepest = node.path;
      const found = await walk(node.children, Math.max(joined, 1));
      if (found) return found;
    }
    return null;
  };
  return (await walk(nodes, rows)) ?? deepest;
}
