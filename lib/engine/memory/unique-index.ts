import { DuplicateKeyError, type IndexSpec, type Row } from '../types';

/**
 * A unique index kept as a hash map from the key (the JSON of the key fields, a missing field counting as
 * `null` as in MongoDB) to the row holding it.
 */
export class UniqueIndex {
  private readonly map = new Map<string, Row>();
  private readonly fields: string[];

  constructor(
    readonly collection: string,
    readonly spec: IndexSpec,
  ) {
    this.fields = Object.keys(spec.keys);
  }

  /** Throws DuplicateKeyError when another row than `replacing` already holds `row`'s key. */
  check(row: Row, replacing?: Row): void {
    const holder = this.map.get(this.keyOf(row));
    if (holder && holder !== replacing) throw new DuplicateKeyError(this.collection, this.spec.name);
  }

  add(row: Row): void {
    this.map.set(this.keyOf(row), row);
  }

  remove(row: Row): void {
    const key = this.keyOf(row);
    if (this.map.get(key) === row) this.map.delete(key);
  }

  private keyOf(row: Row): string {
    return JSON.stringify(this.fields.map((f) => row[f] ?? null));
  }
}
