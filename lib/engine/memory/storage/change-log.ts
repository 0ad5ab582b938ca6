import type { Row } from '../../types';

/** One row added to (`added: true`) or removed from a collection. */
export interface Change {
  readonly row: Row;
  readonly added: boolean;
}

/** How many changes the log keeps at least; a reader further behind rebuilds what it derived. */
const KEEP = 4096;

/**
 * The latest changes of a collection, numbered: change `v` (from 1) is the one that made the version `v`. Bounded:
 * once it holds twice {@link KEEP} changes, the older half is dropped (amortised O(1) a change), so it never keeps
 * more than 8,192 rows alive.
 *
 * @example
 * const log = new ChangeLog(); log.push(row, true); log.since(0) // [{ row, added: true }]
 */
export class ChangeLog {
  private entries: Change[] = [];
  /** The version before `entries[0]`. */
  private base = 0;

  /** The number of changes ever pushed. */
  get version(): number {
    return this.base + this.entries.length;
  }

  push(row: Row, added: boolean): void {
    this.entries.push({ row, added });
    if (this.entries.length >= 2 * KEEP) {
      this.base += this.entries.length - KEEP;
      this.entries = this.entries.slice(-KEEP);
    }
  }

  /** The changes after `version`, oldest first, or null when they are no longer all kept. */
  since(version: number): readonly Change[] | null {
    if (version < this.base || version > this.version) return null;
    return this.entries.slice(version - this.base);
  }
}
