import type { AuthOptions } from './auth';
import type { Engine, IndexSpec } from './engine';
import type { Logger } from './errors/logger';
import { createEngineReadiness, type EngineReadiness } from './http/engine-readiness';
import type { Registry } from './schema';
import { describeStartUp } from './start-up-summary';
import { unfinishedImportWarning } from './transfer/import/import-marker';
import type { UsersPermissionsRuntime } from './users-permissions';
import type { Webhooks } from './webhooks';

/** What the router's start-up runs and reports. */
export interface StartUpParts {
  readonly registry: Registry;
  readonly engine: Engine;
  /** Every collection and its indexes: the content types', the users-permissions plugin's, the webhooks'. */
  readonly collections: readonly { name: string; indexes: readonly IndexSpec[] }[];
  readonly logger: Logger;
  readonly auth: AuthOptions | undefined;
  /** The Public role's actions the users-permissions plugin seeds. */
  readonly publicActions: readonly string[];
  readonly users: UsersPermissionsRuntime | undefined;
  readonly webhooks: Pick<Webhooks, 'start'>;
  /** The `readyWaitMS` option. */
  readonly readyWaitMS: number | undefined;
}

/** The router's start-up: its readiness (`router.ready`) and the call that lets it begin. */
export interface RouterStartUp {
  readonly readiness: EngineReadiness;
  /** Called once the router is built: the start-up begins then. */
  readonly constructed: () => void;
}

/**
 * The engine's start-up (engine.init with every collection's indexes, the unfinished-import warning, the
 * users-permissions seed, the webhooks), retried as `http/engine-readiness` says, with the start-up line once it
 * succeeds. It waits for `constructed()`.
 *
 * @example
 * const { readiness, constructed } = createRouterStartUp({ registry, engine, collections, logger, ... });
 * // ... build the router (this may throw) ...
 * constructed();
 */
export function createRouterStartUp(parts: StartUpParts): RouterStartUp {
  const { engine, logger, users } = parts;
  // The engine starts once every option is checked: a router whose construction throws (a bad `routes` entry is
  // found by createHttpRouter) must not have opened a MongoDB connection or a data file's lock.
  let constructed!: () => void;
  const checked = new Promise<void>((resolve) => (constructed = resolve));
  const start = async (): Promise<void> => {
    await checked;
    await engine.init(parts.collections, { logger });
    // Best effort: a start-up is not refused for want of this warning (the database may answer later).
    const unfinished = await unfinishedImportWarning(engine).catch(() => undefined);
    if (unfinished) logger.warn(unfinished);
    await users?.seed(parts.publicActions);
    await parts.webhooks.start();
  };
  const readiness = createEngineReadiness(start, {
    waitMS: parts.readyWaitMS,
    logger,
    onStarted: () => logger.info(describeStartUp(parts.registry, engine, parts.auth)),
  });
  return { readiness, constructed };
}
