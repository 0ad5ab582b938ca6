import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { createDecryptStream, decryptHead } from './encryption';
import { TransferError } from './transfer-error';

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
  try {
    for await (const entry of extract) {
      const { name, size, type } = entry.header;
      if (type !== 'file') {
        entry.resume();
        continue;
      }
      yield { name: name.replace(/^\.\//, ''), size: size ?? 0, stream: entry as unknown as Readable };
      entry.resume(); // whatever the consumer left unread
    }
  } finally {
    source.destroy();
  }
}

/** The JSON values of a JSON-lines entry, one per non-empty line. */
export async function* readJsonLines(entry: ArchiveEntry): AsyncGenerator<{ line: number; value: unknown }> {
  let line = 0;
  for await (const text of createInterface({ input: entry.stream, crlfDelay: Infinity })) {
    line++;
    if (text.trim() === '') continue;
    try {
      yield { line, value: JSON.parse(text) as unknown };
    } catch {
      throw new TransferError(`${entry.name} line ${line}: not JSON`);
    }
  }
}

/** `entities/entities_00001.jsonl` -> `entities`; undefined for other files. */
export function jsonlStage(name: string): string | undefined {
  const m = /^([a-z]+)\/\1_\d+\.jsonl$/.exec(name);
  return m?.[1];
}
