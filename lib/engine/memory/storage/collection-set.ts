import type { Row } from '../../types';
import { MemoryCollection } from './memory-collection';

/** Every collection's rows as they were at one moment, by name. */
export type StateImage = [string, readonly Row[]][];

/**
 * The memory engine's collections by name: {@link CollectionSet.get} creates a collection empty the first time it
 * is asked for; {@link CollectionSet.find} looks one up without creating it.
 *
 * @example
 * const collections = new CollectionSet();
 * collections.get('articles').insert(row);
 * const image = collections.image(); // for a snapshot or a backup
 */
export class CollectionSet {
  private readonly collections = new Map<string, MemoryCollection>();

  /** The collection `name`, or undefined when it does not exist yet. */
  find(name: string): MemoryCollection | undefined {
    return this.collections.get(name);
  }

  /** The collection `name`, created empty when it does not exist yet. */
  get(name: string): MemoryCollection {
    let col = this.collections.get(name);
    if (!col) {
      col = new MemoryCollection(name);
      this.collections.set(name, col);
    }
    return col;
  }

  /** Every collection's rows as they are now, unchanged by later writes (rows are immutable, arrays copied). */
  image(): StateImage {
    return [...this.collections].map(([name, col]) => [name, col.save()]);
  }
}
