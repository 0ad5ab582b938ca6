const noop = (): void => undefined;

/**
 * The memory engine's write queue: steps (transactions, the journal's rewrite after a snapshot, a backup's image)
 * run one at a time in call order, and reads wait while one runs, so a read never sees a transaction's
 * uncommitted rows. Each wait is on a step not yet waited for, so no wait can spin on a settled promise (one did:
 * microtasks only, forever, while a snapshot's file I/O could never run).
 *
 * @example
 * const steps = new StepQueue();
 * await steps.run(async () => { ... }); // alone
 * await steps.idle(); // before a read
 */
export class StepQueue {
  private tail: Promise<unknown> = Promise.resolve();
  /** The step running, until it has settled. */
  private active: Promise<unknown> | null = null;

  /** Runs `fn` alone: after the steps queued before it, before those queued after it. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(() => {
      const step = fn();
      this.active = step;
      return step.finally(() => {
        if (this.active === step) this.active = null;
      });
    });
    this.tail = run.catch(noop);
    return run;
  }

  /** Resolves once every step queued so far has settled. */
  async settled(): Promise<void> {
    await this.tail;
  }

  /** Resolves once no step is running (a step started meanwhile is waited for too). */
  async idle(): Promise<void> {
    let waited: Promise<unknown> | null = null;
    while (this.active && this.active !== waited) {
      waited = this.active;
      await waited.catch(noop);
    }
  }
}
