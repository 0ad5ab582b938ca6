import type { Row } from '../../types';

/** A value a hash index can hold: compared by identity in a `Map`, exactly as MongoDB compares it. */
export type IndexableValue = string | number | boolean;

/** True for the values a {@link FieldIndex} holds (strings, finite numbers, booleans). */
export function isIndexable(value: unknown): value is IndexableValue {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

const EMPTY: readonly Row[] = Object.freeze([]);

/**
 * A hash index on one top-level field of a collection: value -> rows holding it, each bucket in the
 * collection's natural order (ascending insertion sequence). An array-valued field indexes each element.
 * Rows whose value is null, missing or an array holding null are listed for equality with null; other values
 * (objects, arrays inside arrays) are absent: {@link FieldIndex.selectEqual} then declines, and the bare
 * buckets are a superset callers still run the exact filter on.
 */
export class FieldIndex {
  private readonly buckets = new Map<IndexableValue, Row[]>();
  /** Rows a query equality with null matches: null, missing, or an array holding null; in natural order. */
  private readonly nulls: Row[] = [];

  constructor(
    readonly field: string,
    private readonly seqOf: (row: Row) => number,
  ) {}

  /** Adds `row` at its place (by sequence) in every bucket of its values. */
  add(row: Row): void {
    const seq = this.seqOf(row);
    if (this.isNull(row)) this.nulls.splice(this.position(this.nulls, seq), 0, row);
    for (const key of this.keysOf(row)) {
      const bucket = this.buckets.get(key);
      if (!bucket) {
        this.buckets.set(key, [row]);
      } else if (this.seqOf(bucket[bucket.length - 1]!) < seq) {
        bucket.push(row);
      } else {
        bucket.splice(this.position(bucket, seq), 0, row);
      }
    }
  }

  /** Removes `row` (by identity) from every bucket of its values. */
  remove(row: Row): void {
    const seq = this.seqOf(row);
    if (this.isNull(row)) {
      const at = this.position(this.nulls, seq);
      if (this.nulls[at] === row) this.nulls.splice(at, 1);
    }
    for (const key of this.keysOf(row)) {
      const bucket = this.buckets.get(key);
      if (!bucket) continue;
      const at = this.position(bucket, seq);
      if (bucket[at] === row) bucket.splice(at, 1);
      if (bucket.length === 0) this.buckets.delete(key);
    }
  }

  /**
   * The rows holding any of `values`, in natural order, or `null` when one of the values cannot be looked up
   * (the caller then scans the collection).
   */
  select(values: readonly unknown[]): Row[] | null {
    if (!values.every(isIndexable)) return null;
    if (values.length === 1) return [...(this.buckets.get(values[0] as IndexableValue) ?? [])];
    const seen = new Set<Row>();
    for (const value of new Set(values as IndexableValue[])) {
      for (const row of this.buckets.get(value) ?? []) seen.add(row);
    }
    return [...seen].sort((a, b) => this.seqOf(a) - this.seqOf(b));
  }

  /**
   * The rows whose field equals one of `values` as a query equality does (https://www.mongodb.com/docs/manual/tutorial/query-arrays/,
   * https://www.mongodb.com/docs/manual/tutorial/query-for-null-fields/): a scalar matches the field or an
   * element of an array field, null (or undefined) matches null, a missing field and an array holding null. In
   * natural order, exact (not a superset); null when a value is neither indexable nor null (an object, an
   * array, NaN: the caller scans).
   *
   * @example
   * index.selectEqual(['a1', null]) // rows holding 'a1' and rows whose field is null or missing
   */
  selectEqual(values: readonly unknown[]): Row[] | null {
    const keys: IndexableValue[] = [];
    let withNull = false;
    for (const value of values) {
      if (value === null || value === undefined) withNull = true;
      else if (isIndexable(value)) keys.push(value);
      else return null;
    }
    if (!withNull) return keys.length === 1 ? [...this.bucket(keys[0]!)] : this.select(keys);
    if (keys.length === 0) return [...this.nulls];
    const seen = new Set<Row>(this.nulls);
    for (const key of keys) for (const row of this.bucket(key)) seen.add(row);
    return [...seen].sort((a, b) => this.seqOf(a) - this.seqOf(b));
  }

  /** The rows holding `value`, in natural order: the index's own bucket, which callers must not change. */
  bucket(value: IndexableValue): readonly Row[] {
    return this.buckets.get(value) ?? EMPTY;
  }

  private isNull(row: Row): boolean {
    const value = row[this.field];
    return value === null || value === undefined || (Array.isArray(value) && value.some((v) => v === null || v === undefined));
  }

  private keysOf(row: Row): Set<IndexableValue> {
    const value = row[this.field];
    const values = Array.isArray(value) ? value : [value];
    return new Set(values.filter(isIndexable));
  }

  /** First position in `bucket` whose sequence is >= `seq` (binary search). */
  private position(bucket: readonly Row[], seq: number): number {
    let lo = 0;
    let hi = bucket.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.seqOf(bucket[mid]!) < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
