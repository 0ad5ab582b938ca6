import { isTempField, RESERVED_PREFIX, TEMP } from '../../../pipeline/reserved-fields';
import { ReadLimitError } from '../../types';

/** The populate rows counted so far by the read running now, and its limit. */
interface Meter {
  readonly max: number;
  count: number;
}

/** The memory engine runs each pipeline synchronously, start to end: one meter at a time is enough. */
let active: Meter | null = null;

/**
 * Runs one read with a populate row meter (AggregateOptions.maxJoinedRows): {@link countPopulated} throws a
 * ReadLimitError as soon as the rows joined by populate lookups, all levels together, exceed `max`.
 *
 * @example
 * withRowMeter(10_000, () => runOwned(runtime, col, pipeline));
 */
export function withRowMeter<T>(max: number | undefined, run: () => T): T {
  if (max === undefined) return run();
  const outer = active;
  active = { max, count: 0 };
  try {
    return run();
  } finally {
    active = outer;
  }
}

/** A counted `$lookup`: its path segment and whether it populates or computes a relation sort key. */
export interface MeteredJoin {
  readonly segment: string;
  readonly param: 'populate' | 'sort';
}

/**
 * How a `$lookup` into `as` is counted: the compiler's populate lookups (into the attribute, or into `__p<N>` for
 * the relations and media inside components, whose `localField` is the path, e.g. `blocks.file`) and relation sort
 * lookups (`__s<N>`, named by their `localField`, e.g. `author`); null for the others (relation filters), which are
 * not counted.
 *
 * @example
 * meteredJoin('__p3', 'seo.shareImage') // { segment: 'seo.shareImage', param: 'populate' }
 */
export function meteredJoin(as: string, localField: string): MeteredJoin | null {
  if (!as.startsWith(RESERVED_PREFIX)) return { segment: as, param: 'populate' };
  if (isTempField(as, TEMP.populate)) return { segment: localField, param: 'populate' };
  return isTempField(as, TEMP.sortJoin) ? { segment: localField, param: 'sort' } : null;
}

/** Adds `rows` rows joined by `join` to the running read's count; throws when it goes over the limit. */
export function countJoined(join: MeteredJoin, rows: number): void {
  if (!active) return;
  active.count += rows;
  if (active.count > active.max) throw new ReadLimitError('joinedRows', active.max, [], join.param);
}

/** `error` with `segment` put in front of its path (a counted lookup's own error, or a nested one's). */
export function underSegment(error: unknown, segment: string): unknown {
  if (!(error instanceof ReadLimitError) || error.limit !== 'joinedRows') return error;
  return new ReadLimitError('joinedRows', error.max, [segment, ...error.path], error.param);
}
