/**
 * The start-up warnings of content-router. Each has a stable code, listed in `docs/errors.md`:
 * - `CR_AUTH_OPEN`: `auth: { public: 'all' }` lets every caller do everything;
 * - `CR_MEMORY_ONLY`: a `memoryEngine()` without `file` (nor `ephemeral: true`) loses its data on restart;
 * - `CR_UNSAFE_WRITES`: `mongoEngine({ transactions: false })` writes without transactions;
 * - `CR_SHORT_ACCESS_KEY`: API token access keys shorter than the ones Strapi generates;
 * - `CR_SHORT_JWT_SECRET`: an `auth.users.jwtSecret` shorter than 32 bytes (refused under `NODE_ENV=production`);
 * - `CR_UNKNOWN_SCHEMA_KEYS`: schema files carry keys that Strapi does not use (accepted and ignored, as Strapi does).
 */
export type WarningCode = 'CR_AUTH_OPEN' | 'CR_MEMORY_ONLY' | 'CR_UNSAFE_WRITES' | 'CR_SHORT_ACCESS_KEY' | 'CR_SHORT_JWT_SECRET' | 'CR_UNKNOWN_SCHEMA_KEYS';

/** The `name` of every warning this library emits (`warning.name` in a `process.on('warning')` listener). */
export const WARNING_TYPE = 'ContentRouterWarning';

/**
 * Emits a start-up warning with `process.emitWarning`, not `console.warn`: Node prints it on stderr by default
 * (`(node:1234) [CR_AUTH_OPEN] ContentRouterWarning: ...`), a host routes it to its own logger with
 * `process.on('warning', ...)`, and it carries a code a host can filter on (`--disable-warning=CR_MEMORY_ONLY`)
 * instead of a line of text written behind the host's back. Tests observe it with
 * `jest.spyOn(process, 'emitWarning')`.
 *
 * @example
 * emitWarning('CR_MEMORY_ONLY', 'memoryEngine() keeps data in memory only ...');
 */
export function emitWarning(code: WarningCode, message: string): void {
  process.emitWarning(message, { type: WARNING_TYPE, code });
}

/**
 * Resolves once every warning emitted so far has reached the `'warning'` listeners of the process (Node's own
 * prints it on stderr). `process.emitWarning` emits on `process.nextTick`, and ticks run in the order they were
 * queued: a tick queued after the warnings runs after them. Start-up waits for it before `router.ready` settles,
 * so a host that exits right after `ready` (a script, a failed start-up) has seen its warnings.
 *
 * @example
 * emitWarning('CR_MEMORY_ONLY', '...');
 * await warningsEmitted(); // the warning has been printed
 */
export function warningsEmitted(): Promise<void> {
  return new Promise((resolve) => process.nextTick(resolve));
}
