import { ReadLimitError } from '../types';

/** The populate rows counted so far by the read running now, and its limit. */
interface Meter {
  readonly max: number;
  count: number;
}

/** The memory engine runs each pipeline synchronously, start to end: one meter at a time is enough. */
let active: Meter | null = null;

/**
 * Runs one read with a populate row meter (AggregateOptions.maxPopulatedRows): {@link countPopulated} throws a
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

/**
 * The populate path segment of a `$lookup` into `as` (the compiler's populate lookups: into the attribute, or into
 * `__p<N>` for the relations and media inside components, whose `localField` is the path, e.g. `blocks.file`);
 * null for the lookups of relation filters and sorts (other temporary fields), which are not counted.
 *
 * @example
 * populateSegment('__p3', 'seo.shareImage') // 'seo.shareImage'
 */
export function populateSegment(as: string, localField: string): string | null {
  if (!as.startsWith('__')) return as;
  return /^__p[0-9]+$/.test(as) ? localField : null;
}

/** Adds `rows` joined rows to the running read's count; throws when it goes over the limit. */
export function countPopulated(rows: number): void {
  if (!active) return;
  active.count += rows;
  if (active.count > active.max) throw new ReadLimitError('populatedRows', active.max);
}

/** `error` with `segment` put in front of its populate path (a populate lookup's own, or a nested one's). */
export function underSegment(error: unknown, segment: string): unknown {
  if (!(error instanceof ReadLimitError) || error.limit !== 'populatedRows') return error;
  return new ReadLimitError('populatedRows', error.max, [segment, ...error.path]);
}
