import type { MongooseConnectionLike } from '../../../lib/engine/mongo/mongo-engine';

/** A driver error as the server sends it: a code and error labels (`MongoError.hasErrorLabel` reads them). */
export function labelled(message: string, labels: string[], code = 112): Error {
  return Object.assign(new Error(message), { code, errorLabels: labels, hasErrorLabel: (l: string) => labels.includes(l) });
}

/** What the fake records: the order of session calls and of writes, with the session each write carried. */
export interface FakeLog {
  events: string[];
  sessions: number;
  /** Every `aggregate` call: the collection, the pipeline and the options the engine passed to the driver. */
  aggregates: { collection: string; pipeline: unknown[]; options: Record<string, unknown>; session: boolean }[];
}

export interface FakeOptions {
  /** The `hello` answer (default: a replica set member). */
  hello?: Record<string, unknown>;
  /** Called for every insertMany; throw to fail it. */
  onInsert?: (docs: unknown[], withSession: boolean) => void;
  /** Called for every commit; throw to fail it. */
  onCommit?: () => void;
  /** Called for every aggregate; throw to fail it, or return the documents it answers (default: none). */
  onAggregate?: (pipeline: unknown[], collection: string) => unknown[] | void;
  /** The documents every aggregate's cursor yields when onAggregate answers none (default none). */
  aggregateDocs?: Record<string, unknown>[];
  /** Thrown by the aggregate's cursor once it has yielded its documents, by find's toArray and by countDocuments. */
  readError?: Error;
}

/** The options each read was sent with, and whether the aggregate cursors were closed. */
export interface FakeReads {
  options: { op: string; options: Record<string, unknown> }[];
  yielded: number;
  closed: number;
}

/**
 * A mongoose connection with just enough of the driver (a client with sessions, `db.admin().command`,
 * `collection().insertMany` / `findOneAndUpdate` / `aggregate`, which answers no rows) to run the engine's transaction logic without a server.
 */
export function fakeConnection(options: FakeOptions = {}): { connection: MongooseConnectionLike; log: FakeLog; reads: FakeReads } {
  const log: FakeLog = { events: [], sessions: 0, aggregates: [] };
  const reads: FakeReads = { options: [], yielded: 0, closed: 0 };
  const fail = (): void => {
    if (options.readError) throw options.readError;
  };
  let inTransaction = false;
  let seq = 0;
  const session = {
    startTransaction: () => { inTransaction = true; log.events.push('start'); },
    commitTransaction: async () => {
      log.events.push('commit');
      options.onCommit?.();
      inTransaction = false;
    },
    abortTransaction: async () => { inTransaction = false; log.events.push('abort'); },
    inTransaction: () => inTransaction,
    endSession: async () => { log.events.push('end'); },
  };
  const collection = (name: string) => ({
    aggregate: (pipeline: unknown[], o: Record<string, unknown> = {}) => {
      log.aggregates.push({ collection: name, pipeline, options: o, session: Boolean(o.session) });
      reads.options.push({ op: 'aggregate', options: o });
      const docs = (): unknown[] => options.onAggregate?.(pipeline, name) ?? options.aggregateDocs ?? [];
      return {
        toArray: async () => {
          const all = docs();
          fail();
          return all;
        },
        async *[Symbol.asyncIterator]() {
          try {
            for (const doc of docs()) {
              reads.yielded++;
              yield doc;
            }
            fail();
          } finally {
            reads.closed++;
          }
        },
      };
    },
    find: (_filter: unknown, o: Record<string, unknown> = {}) => {
      reads.options.push({ op: 'find', options: o });
      return { toArray: async () => { fail(); return []; } };
    },
    listIndexes: () => ({ toArray: async () => [] }),
    createIndex: async (_keys: unknown, o: { name: string }) => o.name,
    countDocuments: async (_filter: unknown, o: Record<string, unknown> = {}) => {
      reads.options.push({ op: 'count', options: o });
      fail();
      return 0;
    },
    insertMany: async (docs: unknown[], o: { session?: unknown } = {}) => {
      log.events.push(o.session ? 'insert:session' : 'insert');
      options.onInsert?.(docs, Boolean(o.session));
      return { insertedCount: docs.length };
    },
    findOneAndUpdate: async (_filter: unknown, update: { $inc: { seq: number } }, o: { session?: unknown } = {}) => {
      log.events.push(o.session ? 'nextId:session' : 'nextId');
      seq += update.$inc.seq;
      return { _id: 'x', seq };
    },
  });
  const db = {
    admin: () => ({ command: async () => options.hello ?? { setName: 'rs0', isWritablePrimary: true } }),
    listCollections: () => ({ toArray: async () => [] }),
    createCollection: async () => undefined,
    collection,
  };
  const client = { startSession: () => { log.sessions++; return session; } };
  // Open from the start: the engine never waits on it, so `on` / `removeListener` have nothing to report.
  const connection = { readyState: 1, asPromise: async () => connection, getClient: () => client, db, on: () => connection, removeListener: () => connection };
  return { connection, log, reads };
}
