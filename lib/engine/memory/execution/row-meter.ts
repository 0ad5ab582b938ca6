import { isTempField, RESERVED_PREFIX, TEMP } from '../../../pipeline/reserved-fields';
import { ReadLimitError, type Row } from '../../types';
import { Lazy, type LookupOperator } from '../semantics/mingo-runtime';

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

/**
 * `fast()` (a quicker way to run some stages that counts the same rows, perhaps in another order), or, when it
 * gives null or throws, `exact()` run from the count the running read had before `fast`: the stages run row by row,
 * whose error (the first row over the limit, with its path; any other error of the stages) is the answer.
 * `fast` must have no other effect than the count.
 *
 * @example
 * countedAttempt(() => wholePage(rows), () => rowByRow(rows))
 */
export function countedAttempt<T>(fast: () => T | null, exact: () => T): T {
  const meter = active;
  const before = meter?.count ?? 0;
  try {
    const out = fast();
    if (out !== null) return out;
  } catch {
    // The exact way gives the error (or, if the fast way erred where it does not, the answer).
  }
  if (meter) meter.count = before;
  return exact();
}

/** `error` with `segment` put in front of its path (a counted lookup's own error, or a nested one's). */
export function underSegment(error: unknown, segment: string): unknown {
  if (!(error instanceof ReadLimitError) || error.limit !== 'joinedRows') return error;
  return new ReadLimitError('joinedRows', error.max, [segment, ...error.path], error.param);
}

/**
 * `lookup` (a `$lookup` operator of mingo's context: the general path's) counting what it joins as the fast paths
 * do: a populate or relation sort lookup ({@link meteredJoin}) adds the rows of each output document's `as` array
 * to the running read's count as that document comes out (after its own nested lookups, as fast-paths/indexed-lookup
 * counts), and puts its segment in front of the path of a ReadLimitError thrown inside it. Without it the general
 * path would answer a read the fast paths refuse.
 *
 * @example
 * createContext(meteredLookup(manualLookup))
 */
export function meteredLookup(lookup: LookupOperator): LookupOperator {
  return (coll, expr, options) => {
    const metered = typeof expr.as === 'string' ? meteredJoin(expr.as, typeof expr.localField === 'string' ? expr.localField : '') : null;
    if (!metered) return lookup(coll, expr, options);
    const joined = lookup(coll, expr, options);
    const rows: Row[] = [];
    try {
      for (let next = joined.next(); !next.done; next = joined.next()) {
        const row = next.value as Row;
        const list = row[expr.as];
        countJoined(metered, Array.isArray(list) ? list.length : 0);
        rows.push(row);
      }
    } catch (error) {
      throw underSegment(error, metered.segment);
    }
    return Lazy(rows);
  };
}
