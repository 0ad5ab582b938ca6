import { AsyncLocalStorage } from 'node:async_hooks';
import type { Engine } from './types';

/** The time budget of one read: when its first engine read started (null until then). */
interface ReadBudget {
  started: number | null;
}

const budgets = new AsyncLocalStorage<ReadBudget>();

/**
 * Runs `read` (the document service's read of one request, lib/documents/read-documents) with ONE time budget for
 * every engine read it makes: the join budget's statistics and counts, then the read itself. On MongoDB each one
 * is sent the time left as its `maxTimeMS` ({@link remainingTime}), so that a request costs the server at most the
 * engine's `maxTimeMS` in all, however many aggregates it runs. Nested calls share the outer budget.
 *
 * @example
 * await withReadBudget(engine, () => findMany(registry, engine, article, query))
 */
export function withReadBudget<T>(engine: Pick<Engine, 'readTimeBudget'>, read: () => Promise<T>): Promise<T> {
  return engine.readTimeBudget !== true || budgets.getStore() ? read() : budgets.run({ started: null }, read);
}

/**
 * The time (ms) an engine read may take now: `maxTimeMS` outside a read budget or for its first read (the budget
 * starts then), else `maxTimeMS` minus the time since that first read started (0 or less: nothing left; the engine
 * refuses to start the read, as MongoDB would stop it).
 *
 * @example
 * remainingTime(1000) // 1000 outside withReadBudget; 600 for a second read started 400 ms after the first
 */
export function remainingTime(maxTimeMS: number, now: number = Date.now()): number {
  const budget = budgets.getStore();
  if (!budget) return maxTimeMS;
  if (budget.started === null) {
    budget.started = now;
    return maxTimeMS;
  }
  return maxTimeMS - (now - budget.started);
}
