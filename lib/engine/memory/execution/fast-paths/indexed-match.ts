import { isObject, onlyKey } from '../eligibility';
import type { PipelinePath } from '../fast-path';
import { compileMatchRows } from '../match-rows';

/**
 * The first `$match` of a top-level pipeline, from the collection's indexes rather than every row (match-rows'
 * matchRows: candidates selected by select-candidates, then the whole filter tested on each), in natural order;
 * the result of a filter of plain equalities (a read scope) is kept and brought up to date after writes.
 *
 * @example
 * indexedMatch.accepts([{ $match: { documentId: 'd1', _status: 'published' } }], 0, cx)
 */
export const indexedMatch: PipelinePath = {
  name: 'indexed-match',
  kind: 'pipeline',
  operators: ['$match'],
  accepts(pipeline, at, cx) {
    const filter = at === 0 ? onlyKey(pipeline[0], '$match') : undefined;
    if (!isObject(filter)) return null;
    // Planned once per frozen pipeline (planner): the filter's key and kind are decided here, not on every read.
    const match = compileMatchRows(filter, cx.options);
    return { next: 1, run: (_input, top) => ({ rows: match(top.collection) as never, owned: false }) };
  },
};
