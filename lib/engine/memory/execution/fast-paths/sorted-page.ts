import type { Pipeline, Row } from '../../../types';
import { isTempField } from '../../../../pipeline/reserved-fields';
import { isCount, isLimit, isObject, onlyKey } from '../eligibility';
import type { PipelinePath } from '../fast-path';
import { firstSorted, markSortedBy, planSort } from '../sort-rows';
import type { RowSet, StageContext } from '../stage-context';

/**
 * A page of a sorted list: `$sort`, then `$limit` or `$skip` + `$limit` (a relation sort's `$unset` of its
 * temporary fields, pipeline/reserved-fields, may stand between: it changes no order and no count, so it runs on
 * the page's rows only). Only the first `skip + limit` rows are ordered (sort-rows' firstSorted: a bounded buffer,
 * none when the rows already are in order), in MongoDB's order; the page is marked as sorted by this spec
 * (document-number numbers it as it is). Declines a spec sort-rows does not plan.
 *
 * @example
 * sortedPage.accepts([{ $sort: { title: -1, id: 1 } }, { $skip: 25 }, { $limit: 25 }], 0, cx)
 */
export const sortedPage: PipelinePath = {
  name: 'sorted-page',
  kind: 'pipeline',
  operators: ['$sort'],
  accepts(pipeline, at, cx) {
    const spec = onlyKey(pipeline[at], '$sort');
    if (!isObject(spec)) return null;
    const unset = tempUnset(cx, pipeline[at + 1]);
    const window = pageWindow(pipeline, unset ? at + 2 : at + 1);
    if (!window) return null;
    return {
      next: window.next,
      run: (input, top) => {
        const plan = planSort(input.rows, spec);
        if (!plan) return null;
        if (unset) top.counts[at + 1] = input.rows.length;
        let page: RowSet = { rows: firstSorted(input.rows, plan, window.skip + window.limit).slice(window.skip), owned: input.owned };
        if (unset) page = unset(page.rows);
        markSortedBy(page.rows, spec);
        return page;
      },
    };
  },
};

/** `{ $unset: [<temporary fields>] }` (the compiler's, pipeline/reserved-fields) compiled by the planner, else null. */
function tempUnset(cx: StageContext, stage: Record<string, unknown> | undefined): ((rows: Row[]) => RowSet) | null {
  const names = onlyKey(stage, '$unset');
  if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string' && isTempField(n))) return null;
  const run = cx.compile([stage!]);
  return (rows) => run(rows, false, {});
}

/** `$limit` or `$skip` + `$limit` at `from` (a positive limit): the rows to skip and keep, and the next stage. */
function pageWindow(pipeline: Pipeline, from: number): { skip: number; limit: number; next: number } | null {
  const skip = onlyKey(pipeline[from], '$skip');
  const at = skip === undefined ? from : from + 1;
  const limit = onlyKey(pipeline[at], '$limit');
  if ((skip !== undefined && !isCount(skip)) || !isLimit(limit)) return null;
  return { skip: skip ?? 0, limit, next: at + 1 };
}
