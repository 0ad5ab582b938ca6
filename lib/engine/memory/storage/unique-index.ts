import { DuplicateKeyError, type IndexSpec, type Row } from '../../types';
import { compilePartialFilter } from './partial-filter';

/**
 * A unique index kept as a hash map from the key (the JSON of the key fields, a missing field counting as
 * `null` as in MongoDB) to the row holding it. With a partial filter, only the rows matching it are indexed, so
 * only they can clash (https://www.mongodb.com/docs/manual/core/index-partial/, "Partial Index with Unique Constraint").
 */
export class UniqueIndex {
  private readonly map = new Map<string, Row>();
  private readonly fields: string[];
  private readonly indexed: (row: Row) => boolean;

  constructor(
    readonly collection: string,
    readonly spec: IndexSpec,
  ) {
    this.fields = Object.keys(spec.keys);
    this.indexed = spec.partialFilter ? compilePartialFilter(spec.partialFilter) : () => true;
  }

  /** Throws DuplicateKeyError when another row than `replacing` already holds `row`'s key. */
  check(row: Row, replacing?: Row): void {
    if (!this.indexed(row)) return;
    const holder = this.map.get(this.keyOf(row));
    if (holder && holder !== replacing) throw new DuplicateKeyError(this.collection, this.spec.name);
  }

  add(row: Row): void {
    if (this.indexed(row)) this.map.set(this.keyOf(row), row);
  }

  remove(row: Row): void {
    const key = this.keyOf(row);
    if (this.map.get(key) === row) this.map.delete(key);
  }

  private keyOf(row: Row): string {
    return JSON.stringify(this.fields.map((f) => row[f] ?? null));
  }
}
