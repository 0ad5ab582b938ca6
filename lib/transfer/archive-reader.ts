import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { createDecryptStream, decryptHead } from './encryption';
import { readBoundedLines } from './line-reader';
import { TransferError } from './transfer-error';
import { checkJsonValue, DEFAULT_LIMITS, type TransferLimits } from './transfer-limits';

/** How an export file is read: `key` decrypts it (Strapi's `--key`); gzip is detected from its bytes. */
export interface ArchiveReadOptions {
  readonly key?: string;
}

/** One file of the archive, streamed: read `stream` to its end (or not at all) before asking for the next one. */
export interface ArchiveEntry {
  readonly name: string;
  readonly size: number;
  readonly stream: Readable;
}

const GZIP_MAGIC = [0x1f, 0x8b];
const TAR_MAGIC_OFFSET = 257;

/** The first plain bytes of the file (decrypted with `key`), enough to tell gzip from tar. */
async function plainHead(file: string, key: string | undefined): Promise<Buffer> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new TransferError(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    const head = buffer.subarray(0, bytesRead);
    if (key === undefined) return head;
    return decryptHead(head.subarray(0, head.length - (head.length % 16)), key);
  } finally {
    await handle.close();
  }
}

const isGzip = (head: Buffer): boolean => head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
const isTar = (head: Buffer): boolean => head.subarray(TAR_MAGIC_OFFSET, TAR_MAGIC_OFFSET + 5).toString('latin1') === 'ustar';

/**
 * The files of a Strapi export (`.tar`, `.tar.gz`, `.tar.gz.enc`), in archive order, streamed: nothing is held
 * in memory but the entry being read. A file that is neither (or a wrong key) is a {@link TransferError}.
 *
 * @example
 * for await (const entry of readArchive('export.tar.gz')) console.log(entry.name, entry.size);
 */
export async function* readArchive(file: string, options: ArchiveReadOptions = {}): AsyncGenerator<ArchiveEntry> {
  const head = await plainHead(file, options.key);
  const gzip = isGzip(head);
  if (!gzip && !isTar(head)) {
    throw new TransferError(
      options.key === undefined
        ? `${file} is not a Strapi export (.tar or .tar.gz): if it is encrypted (.enc), give its key`
        : `${file} cannot be decrypted with this key (or is not a Strapi export)`,
    );
  }
  let source: Readable = createReadStream(file);
  const fail = (error: Error) => extract.destroy(new TransferError(`${file}: ${options.key === undefined ? '' : 'wrong key or '}damaged archive (${error.message})`));
  const extract = tar.extract();
  if (options.key !== undefined) source = source.pipe(createDecryptStream(options.key).on('error', fail));
  if (gzip) source = source.pipe(createGunzip().on('error', fail));
  source.on('error', fail);
  source.pipe(extract as unknown as NodeJS.WritableStream);
  // tar-stream's own errors (a truncated or corrupt archive) surface from the entries or the extractor: said as one.
  const damaged = (error: Error): TransferError =>
    error instanceof TransferError ? error : new TransferError(`${file}: damaged archive (${error.message}); nothing was imported`);
  try {
    for await (const entry of extract) {
      const { name, size, type } = entry.header;
      const problem = entryProblem(name, type);
      if (problem) throw new TransferError(`${file}: the entry ${JSON.stringify(name)} ${problem}; nothing was imported`);
      if (type === 'directory') {
        entry.resume();
        continue;
      }
      yield { name: name.replace(/^\.\//, ''), size: size ?? 0, stream: entry as unknown as Readable };
      entry.resume(); // whatever the consumer left unread
    }
  } catch (error) {
    throw damaged(error as Error);
  } finally {
    source.destroy();
  }
}

/**
 * Why an entry of an archive is refused: a Strapi export holds regular files (and folders) only, under relative
 * names that stay inside the archive. A link (symbolic or hard), a device, a name with `..`, an absolute name or a
 * backslash is a hostile or broken archive, refused whatever it would have been used for.
 */
function entryProblem(name: string, type: string | null | undefined): string | undefined {
  if (type !== 'file' && type !== 'contiguous-file' && type !== 'directory') return `is a ${type ?? 'special entry'}: a Strapi export holds regular files only`;
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'has an absolute name';
  if (name.includes('\\') || name.includes('\u0000')) return 'has a backslash or a NUL in its name';
  if (name.split('/').includes('..')) return 'leaves the archive (a ".." in its name)';
  return undefined;
}

/** An error met reading an entry's bytes: tar-stream's own (a truncated archive) said as a damaged entry. */
export function entryError(entry: ArchiveEntry, error: unknown): TransferError {
  if (error instanceof TransferError) return error;
  return new TransferError(`${entry.name}: damaged archive (${(error as Error).message}); nothing was imported`);
}

/** How the JSON lines of an entry are read: each line and value bounded ({@link TransferLimits}). */
export type JsonLinesLimits = Pick<TransferLimits, 'maxLineBytes' | 'maxDepth'>;

/**
 * The JSON values of a JSON-lines entry, one per non-empty line, with the line's text. A line over
 * `maxLineBytes`, one that is not JSON, nested deeper than `maxDepth` or holding a `__proto__` key is a
 * {@link TransferError} naming the entry and the line.
 */
export async function* readJsonLines(entry: ArchiveEntry, limits: JsonLinesLimits = {}): AsyncGenerator<{ line: number; value: unknown; text: string }> {
  const maxDepth = limits.maxDepth ?? DEFAULT_LIMITS.maxDepth;
  const lines = readBoundedLines(entry.stream, entry.name, limits.maxLineBytes ?? DEFAULT_LIMITS.maxLineBytes);
  for await (const { line, text } of withEntryErrors(entry, lines)) {
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      throw new TransferError(`${entry.name} line ${line}: not JSON; nothing was imported`);
    }
    const problem = checkJsonValue(value, maxDepth);
    if (problem) throw new TransferError(`${entry.name} line ${line}: ${problem}; nothing was imported`);
    yield { line, value, text };
  }
}

/** `source`'s values, its errors said by {@link entryError}. */
async function* withEntryErrors<T>(entry: ArchiveEntry, source: AsyncGenerator<T>): AsyncGenerator<T> {
  for (;;) {
    let next: IteratorResult<T>;
    try {
      next = await source.next();
    } catch (error) {
      throw entryError(entry, error);
    }
    if (next.done) return;
    yield next.value;
  }
}

/** `entities/entities_00001.jsonl` -> `entities`; undefined for other files. */
export function jsonlStage(name: string): string | undefined {
  const m = /^([a-z]+)\/\1_\d+\.jsonl$/.exec(name);
  return m?.[1];
}
