/**
 * Where the test environment (test-environment.ts) keeps the current test file's after-file hooks. A registry
 * symbol: the environment and the test file's sandbox are two module instances but see the same symbol.
 */
export const AFTER_TEST_FILE = Symbol.for('content-router.test.after-test-file');

/** A clean-up to run once the test file has finished. */
export type AfterTestFileHook = () => Promise<void> | void;

type HookHolder = { [AFTER_TEST_FILE]?: AfterTestFileHook[] };

/**
 * Runs `hook` once the current test file has finished: after every `afterAll` of the file, the file's own included,
 * whatever failed. Jest runs the top-level `afterAll` hooks in the order they were declared
 * (https://jestjs.io/docs/setup-teardown#order-of-execution), so a hook a helper declares when it is imported
 * would run BEFORE the suite's own ones; the test environment runs these at jest-circus's `run_finish` event
 * instead, which comes after the root block's `afterAll` hooks. Hooks run in the order given.
 * Outside Jest (a script importing a helper) there is nothing to register with: the caller cleans up.
 *
 * @example
 * afterTestFile(() => engine.close());
 */
export function afterTestFile(hook: AfterTestFileHook): void {
  const hooks = (globalThis as HookHolder)[AFTER_TEST_FILE];
  if (hooks) {
    hooks.push(hook);
    return;
  }
  if (typeof afterAll === 'function') {
    throw new Error('afterTestFile: run the tests with jest.config.js (its testEnvironment, __tests__/helpers/test-environment.ts, runs these hooks)');
  }
}
