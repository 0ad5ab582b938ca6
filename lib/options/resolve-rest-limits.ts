import { randomBytes } from 'node:crypto';
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_JOINED_ROWS } from '../query/depth-limit';
import type { RestLimits } from '../query';
import type { PopulatePagination } from '../query/parse-query';
import type { ContentRouterOptions } from './content-router-options';

/**
 * The `rest` option with its defaults filled in (see {@link ContentRouterOptions.rest}): the REST limits every layer
 * reads. Without `cursorSecret`, cursors are signed with a random key of this router.
 *
 * @example
 * resolveRestLimits({ maxLimit: 50 }); // { defaultLimit: 25, maxLimit: 50, maxDepth: 10, ... }
 */
export function resolveRestLimits(rest: ContentRouterOptions['rest']): Required<RestLimits & PopulatePagination> {
  return {
    defaultLimit: rest?.defaultLimit ?? 25,
    maxLimit: rest?.maxLimit ?? 100,
    maxDepth: rest?.maxDepth ?? DEFAULT_MAX_DEPTH,
    maxJoinedRows: rest?.maxJoinedRows ?? DEFAULT_MAX_JOINED_ROWS,
    populatePagination: rest?.populatePagination ?? true,
    cursorPagination: rest?.cursorPagination ?? true,
    cursorSecret: rest?.cursorSecret ?? randomBytes(32),
  };
}
