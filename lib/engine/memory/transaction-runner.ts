import { AsyncLocalStorage } from 'node:async_hooks';
import createDebug from 'debug';
import type { JournalOp } from './storage/journal-record';
import { UndoLog } from './storage/undo-log';
import type { WriteQueue } from './write-queue';

const debug = createDebug('content-router:engine:memory');

interface TxState {
  /** How to take back the transaction's writes (not the counters'), newest first. */
  undo: UndoLog;
  ops: JournalOp[];
  /** Counter bumps: journaled even when the transaction rolls back (ids are never handed out twice). */
  kept: JournalOp[];
}

/**
 * The memory engine's transactions: one at a time on the write queue, each write recorded in the transaction of
 * its async context (AsyncLocalStorage) with its undo records and journal operations; a transaction that throws is
 * rolled back.
 *
 * @example
 * const transactions = new TransactionRunner(queue);
 * await transactions.run(async () => {
 *   await transactions.write((undo) => { col.insert(row, undo); return [{ op: 'put', c: 'articles', rows: [row] }]; });
 * });
 */
export class TransactionRunner {
  private readonly txScope = new AsyncLocalStorage<TxState>();

  constructor(private readonly queue: WriteQueue) {}

  /** Whether the caller runs inside a transaction. */
  get active(): boolean {
    return this.txScope.getStore() !== undefined;
  }

  /**
   * Runs `fn` alone (the step queue) and acknowledges it once its journal record is on disk. The queue is free
   * again as soon as `fn`'s writes are applied: the next transaction runs while this one's record is synced, and
   * the records of the transactions that arrive meanwhile are synced together (group commit, storage/durable-file).
   */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.txScope.getStore()) return fn();
    await this.queue.ready();
    try {
      const { result, durable } = await this.queue.run(() => this.runTransaction(fn));
      if (durable) await durable;
      return result;
    } finally {
      this.queue.snapshotIfDue();
    }
  }

  /**
   * Applies `fn`'s writes (taken back by their undo records if it throws) and queues its journal record; `durable`
   * resolves once the record is on disk. A rolled-back transaction still journals its counter bumps.
   */
  private async runTransaction<T>(fn: () => Promise<T>): Promise<{ result: T; durable: Promise<void> | null }> {
    const tx: TxState = { undo: new UndoLog(), ops: [], kept: [] };
    try {
      const result = await this.txScope.run(tx, fn);
      return { result, durable: tx.ops.length ? this.queue.journal(tx.ops, tx.undo) : null };
    } catch (error) {
      tx.undo.rollbackTo(0);
      if (tx.kept.length) this.queue.journal(tx.kept, null)?.catch((e: unknown) => debug('counter journal failed: %O', e));
      throw error;
    } finally {
      this.leave();
    }
  }

  /**
   * Ends the transaction's async context once it is over (transactions run one at a time, so none is open then):
   * work it left behind (a timer, a promise not awaited) that writes later writes in a transaction of its own,
   * queued and journaled, instead of into the one that ended. And with no AsyncLocalStorage enabled, Node turns
   * its async hooks off again (node:async_hooks `disable()`), which every promise of the process, reads
   * included, pays for while they are on (Node 20).
   */
  private leave(): void {
    this.txScope.disable();
  }

  /**
   * Applies one write inside the current transaction, or in a transaction of its own. `keep`: survives a rollback
   * of the transaction (counters). A write that throws part way (a unique clash on the third row of an
   * `updateMany`) is taken back whole before the error reaches the caller, so a transaction that catches it and
   * goes on holds exactly the writes it journals.
   */
  write(apply: (undo: UndoLog | undefined) => JournalOp[], keep: boolean): Promise<void> {
    const run = async (): Promise<void> => {
      const tx = this.txScope.getStore()!;
      const undo = keep ? undefined : tx.undo;
      const mark = tx.undo.mark();
      let ops: JournalOp[];
      try {
        ops = apply(undo);
      } catch (error) {
        tx.undo.rollbackTo(mark);
        throw error;
      }
      tx.ops.push(...ops);
      if (keep) tx.kept.push(...ops);
    };
    if (this.txScope.getStore()) return run();
    return this.run(run);
  }
}
