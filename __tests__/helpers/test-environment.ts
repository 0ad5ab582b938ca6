import { TestEnvironment } from 'jest-environment-node';
import { AFTER_TEST_FILE, type AfterTestFileHook } from './after-test-file';

type HookHolder = { [AFTER_TEST_FILE]?: AfterTestFileHook[] };

/**
 * Jest's node environment, plus the after-file hooks of {@link afterTestFile}: they run at jest-circus's
 * `run_finish` event, which it dispatches after the root describe block's `afterAll` hooks and waits for
 * (https://github.com/jestjs/jest/blob/v29.7.0/packages/jest-circus/README.md: "jest-circus test runner would
 * pause until a promise returned from handleTestEvent gets fulfilled"), while the file's modules are still loaded.
 * A file that failed before running (an import that threw) never reaches `run_finish`: its hooks run at
 * `teardown` instead. A failing hook fails the test file.
 */
export default class ContentRouterTestEnvironment extends TestEnvironment {
  override async setup(): Promise<void> {
    await super.setup();
    (this.global as HookHolder)[AFTER_TEST_FILE] = [];
  }

  async handleTestEvent(event: { name: string }): Promise<void> {
    if (event.name === 'run_finish') await this.runAfterFileHooks();
  }

  override async teardown(): Promise<void> {
    try {
      await this.runAfterFileHooks();
    } finally {
      await super.teardown();
    }
  }

  private async runAfterFileHooks(): Promise<void> {
    const hooks = (this.global as HookHolder | null)?.[AFTER_TEST_FILE]?.splice(0) ?? [];
    const errors: unknown[] = [];
    for (const hook of hooks) {
      try {
        await hook();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} after-file hooks failed`);
  }
}
