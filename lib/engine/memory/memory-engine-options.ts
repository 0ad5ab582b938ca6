import { ConfigurationError, emitWarning } from '../../errors';
import { unknownKeyMessage } from '../../errors/did-you-mean';
import { FAST_PATH_NAMES } from './execution/registry';

const KNOWN_KEYS: readonly (keyof MemoryEngineOptions)[] = ['file', 'snapshotBytes', 'ephemeral', 'maxDocumentBytes', 'disabledFastPaths'];

/** Options of `memoryEngine()`; see docs/engines.md. */
export interface MemoryEngineOptions {
  /**
   * Makes the engine durable: a snapshot at `file` and an append-only journal at `file.journal`
   * (see docs/engines.md). Without it, data lives only as long as the process.
   */
  file?: string;
  /** Journal size (bytes) after which a snapshot is written and the journal emptied. Default 16 MiB. */
  snapshotBytes?: number;
  /**
   * `true` says "in memory only, on purpose" (tests, demos): no `CR_MEMORY_ONLY` warning at startup. Without
   * `file` and without it, `init` warns that the data is lost when the process ends. Cannot be combined with `file`.
   */
  ephemeral?: boolean;
  /**
   * Fails an `aggregate` whose result holds a document over this BSON size (bytes), as MongoDB does over its
   * 16 MiB limit (`MONGODB_MAX_DOCUMENT_BYTES`; BSONObjectTooLarge): tests see what MongoDB would refuse.
   * Measured with `bson`'s `calculateObjectSize` (the optional peer dependency `bson` must be installed).
   * Default: no check.
   */
  maxDocumentBytes?: number;
  /**
   * Fast paths of the embedded engine to switch off, by name (docs/architecture.md lists them): every pipeline
   * then runs without them, with the same answers, only slower. A diagnostic: when you suspect a fast path of a
   * wrong answer, switch it off and compare. Default: none.
   */
  disabledFastPaths?: readonly string[];
}

/**
 * Rejects unknown options (with a did-you-mean) and options that contradict each other (CR_INVALID_OPTIONS).
 *
 * @example
 * checkMemoryEngineOptions({ file: './data/content.db', ephemeral: true }); // throws
 */
export function checkMemoryEngineOptions(options: MemoryEngineOptions): void {
  // A misspelled `file` would silently give an engine that loses everything on restart.
  const unknown = Object.keys(options).find((k) => !(KNOWN_KEYS as readonly string[]).includes(k));
  if (unknown !== undefined) throw new ConfigurationError('CR_INVALID_OPTIONS', unknownKeyMessage('memoryEngine(options)', unknown, KNOWN_KEYS, 'option'));
  if (options.ephemeral !== undefined && typeof options.ephemeral !== 'boolean') {
    throw new ConfigurationError('CR_INVALID_OPTIONS', 'memoryEngine: `ephemeral` must be a boolean');
  }
  const paths = options.disabledFastPaths;
  if (paths !== undefined && (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string'))) {
    throw new ConfigurationError('CR_INVALID_OPTIONS', 'memoryEngine: `disabledFastPaths` must be an array of fast path names');
  }
  const unknownPath = paths?.find((p) => !FAST_PATH_NAMES.includes(p));
  if (unknownPath !== undefined) {
    throw new ConfigurationError('CR_INVALID_OPTIONS', unknownKeyMessage('memoryEngine: disabledFastPaths', unknownPath, FAST_PATH_NAMES, 'fast path'));
  }
  if (options.ephemeral === true && options.file !== undefined) {
    throw new ConfigurationError('CR_INVALID_OPTIONS', 'memoryEngine: `file` (durable) and `ephemeral: true` (memory only) exclude each other');
  }
}

/**
 * Emits `CR_MEMORY_ONLY` when the engine keeps its data in memory only without saying so (`ephemeral: true`): a
 * host that forgot `engine` (or `file`) would otherwise lose everything on restart without a word.
 *
 * @example
 * warnIfMemoryOnly({}); // (node:1234) [CR_MEMORY_ONLY] ContentRouterWarning: memoryEngine() without `file` ...
 */
export function warnIfMemoryOnly(options: MemoryEngineOptions): void {
  if (options.file !== undefined || options.ephemeral === true) return;
  emitWarning(
    'CR_MEMORY_ONLY',
    'memoryEngine() without `file` keeps the data in memory only: it is lost when the process ends. Use ' +
      "memoryEngine({ file: './data/content.db' }) or mongoEngine(), or memoryEngine({ ephemeral: true }) when that is on purpose.",
  );
}
