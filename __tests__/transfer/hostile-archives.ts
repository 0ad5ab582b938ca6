import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { tempDir } from './transfer-helpers';

/** One entry of a crafted archive: a file (its bytes, or `size` bytes of `fill` streamed), a link or a device. */
export interface CraftedEntry {
  readonly name: string;
  readonly type?: 'file' | 'symlink' | 'link' | 'character-device' | 'directory';
  readonly linkname?: string;
  readonly body?: string | Buffer;
  /** Streamed: `size` bytes of `fill` (64 KiB at a time, nothing held). */
  readonly size?: number;
  readonly fill?: number;
  /** Streamed before the `fill` bytes (counted in `size`). */
  readonly head?: string;
}

/** `size` bytes of `fill`, 64 KiB at a time. */
function filler(size: number, fill: number): Readable {
  const chunk = Buffer.alloc(64 * 1024, fill);
  let left = size;
  return new Readable({
    read() {
      const n = Math.min(left, chunk.length);
      left -= n;
      this.push(n > 0 ? chunk.subarray(0, n) : null);
    },
  });
}

async function addEntry(pack: tar.Pack, entry: CraftedEntry): Promise<void> {
  const type = entry.type ?? 'file';
  if (type !== 'file') {
    await new Promise<void>((resolve, reject) => pack.entry({ name: entry.name, type, linkname: entry.linkname }, (error) => (error ? reject(error) : resolve())));
    return;
  }
  if (entry.body !== undefined) {
    const body = Buffer.from(entry.body);
    await new Promise<void>((resolve, reject) => pack.entry({ name: entry.name, size: body.length }, body, (error) => (error ? reject(error) : resolve())));
    return;
  }
  const size = entry.size ?? 0;
  const head = Buffer.from(entry.head ?? '');
  const sink = pack.entry({ name: entry.name, size }) as unknown as Writable;
  const fill = filler(size - head.length, entry.fill ?? 0);
  await pipeline(Readable.from((async function* () {
    if (head.length) yield head;
    yield* fill;
  })()), sink);
}

/**
 * A crafted archive written to a temporary file (`.tar`, or `.tar.gz` with `gzip`): the hostile exports of the
 * tests are generated here, never stored.
 */
export async function craftArchive(entries: readonly CraftedEntry[], gzip = false): Promise<string> {
  const file = path.join(tempDir('hostile'), gzip ? 'export.tar.gz' : 'export.tar');
  const pack = tar.pack();
  const out = createWriteStream(file);
  const done = gzip ? pipeline(pack, createGzip(), out) : pipeline(pack, out);
  for (const entry of entries) await addEntry(pack, entry);
  pack.finalize();
  await done;
  return file;
}

/** A ustar header (512 bytes) for a regular file `name` declaring `size` bytes: the bytes themselves may never come. */
export function ustarHeader(name: string, size: number): Buffer {
  const header = Buffer.alloc(512, 0);
  const field = (offset: number, length: number, value: string) => header.write(value, offset, length, 'latin1');
  field(0, 100, name);
  field(100, 8, '0000644\0');
  field(108, 8, '0000000\0');
  field(116, 8, '0000000\0');
  field(124, 12, `${size.toString(8).padStart(11, '0')}\0`);
  field(136, 12, '00000000000\0');
  field(156, 1, '0');
  field(257, 6, 'ustar\0');
  field(263, 2, '00');
  field(148, 8, '        ');
  let sum = 0;
  for (const byte of header) sum += byte;
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return header;
}

/** A gzip file holding `header` and `zeros` bytes of zeros after it (a bomb: small on disk, huge once inflated). */
export async function gzipBomb(header: Buffer, zeros: number): Promise<string> {
  const file = path.join(tempDir('bomb'), 'export.tar.gz');
  await pipeline(Readable.from((async function* () {
    yield header;
    yield* filler(zeros, 0);
  })()), createGzip(), createWriteStream(file));
  return file;
}
