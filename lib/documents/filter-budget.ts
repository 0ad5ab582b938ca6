import { ReadLimitError, type Engine } from '../engine/types';
import { compileFilterJoins, selectsOneRow, type FilterJoinNode } from '../pipeline';
import type { Query } from '../query/types';
import type { ContentType, Registry } from '../schema';
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
 *
 * @example
 * await checkFilterBudget(registry, engine, article, query, false) // throws for filters[author][articles][author][articles]... on a large store
 */
export async function checkFilterBudget(registry: Registry, engine: Engine, ct: ContentType, query: Query, one: boolean): Promise<void> {
  const max = query.maxJoinedRows;
  if (max === undefined || !query.filters) return;
  const nodes = compileFilterJoins(registry, ct, query.filters, query.status);
  if (fanOutDepth(nodes) < 2) return;
  const scope = ct.draftAndPublish ? { _status: query.status } : {};
  const rows = one || selectsOneRow(query.filters) ? 1 : await scopeCount(engine, ct.collectionName, scope);
  if ((await joinBound(engine, nodes, rows, max, false)) <= max || (await joinBound(engine, nodes, rows, max, true)) <= max) return;
  throw new ReadLimitError('joinedRows', max, await overPath(engine, nodes, rows, max), 'filters');
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
