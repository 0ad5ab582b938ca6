import { TransferError } from './transfer-error';

/**
 * Stops an import whose `signal` fired (the command's SIGINT or SIGTERM, or the host's AbortController): a
 * {@link TransferError} saying so, which the import answers by rolling back.
 *
 * @example
 * for (const row of rows) { throwIfInterrupted(signal); await write(row); }
 */
export function throwIfInterrupted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const reason: unknown = signal.reason;
  throw new TransferError(`the import was interrupted (${reason instanceof Error ? reason.message : String(reason)}); nothing was imported`);
}
