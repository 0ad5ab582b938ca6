import { EventEmitter } from 'node:events';
import type { Document } from 'mongodb';

interface StoredIndex {
  name: string;
  key: Record<string, number>;
  unique?: boolean;
}

const serverError = (code: number, codeName: string, message: string): Error => Object.assign(new Error(message), { code, codeName });

/**
 * A stand-in for the driver's `Db`, limited to what `mongoEngine`'s `init` calls, with MongoDB's documented
 * answers to `createIndex` (https://www.mongodb.com/docs/manual/reference/method/db.collection.createIndex/):
 * the same definition again is a no-op; the same name with other keys is IndexKeySpecsConflict (86); the same
 * name with other options, or the same keys under another name, is IndexOptionsConflict (85).
 */
export class FakeDb {
  readonly indexes = new Map<string, StoredIndex[]>();
  readonly calls: string[] = [];

  listCollections(): { toArray(): Promise<{ name: string }[]> } {
    return { toArray: async () => [...this.indexes.keys()].map((name) => ({ name })) };
  }

  async createCollection(name: string): Promise<void> {
    if (!this.indexes.has(name)) this.indexes.set(name, [{ name: '_id_', key: { _id: 1 } }]);
  }

  admin(): { command(): Promise<Document> } {
    return { command: async () => ({ isWritablePrimary: true, setName: 'rs0' }) };
  }

  collection(name: string) {
    const list = (): StoredIndex[] => {
      if (!this.indexes.has(name)) this.indexes.set(name, [{ name: '_id_', key: { _id: 1 } }]);
      return this.indexes.get(name)!;
    };
    return {
      createIndex: async (key: Record<string, 1 | -1>, options: { name: string; unique?: boolean }): Promise<string> => {
        this.calls.push(`createIndex ${name}.${options.name}`);
        const sameKeys = (i: StoredIndex): boolean => JSON.stringify(i.key) === JSON.stringify(key);
        const named = list().find((i) => i.name === options.name);
        if (named && !sameKeys(named)) throw serverError(86, 'IndexKeySpecsConflict', `An existing index has the same name as the requested index: ${options.name}`);
        if (named && Boolean(named.unique) !== Boolean(options.unique)) throw serverError(85, 'IndexOptionsConflict', `Index with name: ${options.name} already exists with different options`);
        if (named) return options.name;
        if (list().some(sameKeys)) throw serverError(85, 'IndexOptionsConflict', 'Index already exists with a different name');
        list().push({ name: options.name, key, ...(options.unique ? { unique: true } : {}) });
        return options.name;
      },
      dropIndex: async (index: string): Promise<void> => {
        this.calls.push(`dropIndex ${name}.${index}`);
        const at = list().findIndex((i) => i.name === index);
        if (at < 0) throw serverError(27, 'IndexNotFound', `index not found with name [${index}]`);
        list().splice(at, 1);
      },
      listIndexes: () => ({ toArray: async (): Promise<Document[]> => list().map((i) => ({ v: 2, ...i })) }),
    };
  }
}

/**
 * A mongoose-like connection that is not connected until `open()` (what `mongoose.connect()` does to
 * `mongoose.connection`): readyState 0 -> 'connecting' (2) -> 'connected' (1) with `db` set -> 'open';
 * `fail()` makes the attempt reject instead, as mongoose's `asPromise()` does.
 */
export class FakeConnection extends EventEmitter {
  readyState = 0;
  db: FakeDb | undefined;
  private attempt: Promise<unknown> | undefined;

  constructor(private readonly database = new FakeDb()) {
    super();
  }

  asPromise(): Promise<unknown> {
    return (this.attempt ?? Promise.resolve()).then(() => this);
  }

  getClient(): unknown {
    throw new Error('no transactions in the fake');
  }

  /** Starts an attempt that opens on the next macrotask. */
  open(): Promise<unknown> {
    this.setState(2, 'connecting');
    this.attempt = new Promise((resolve) => setImmediate(resolve)).then(() => {
      this.db = this.database;
      this.setState(1, 'connected');
      this.emit('open');
    });
    return this.attempt;
  }

  /** Starts an attempt that fails on the next macrotask (readyState back to 0). */
  fail(message: string): void {
    this.setState(2, 'connecting');
    this.attempt = new Promise((resolve) => setImmediate(resolve)).then(() => {
      this.setState(0, 'disconnected');
      throw new Error(message);
    });
    this.attempt.catch(() => undefined);
  }

  private setState(state: number, event: string): void {
    this.readyState = state;
    this.emit(event);
  }
}
