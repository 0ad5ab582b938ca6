import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { createEncryptStream } from './encryption';

/** How an export is written: gzip (default on, as `strapi export`) and Strapi's encryption key. */
export interface ArchiveWriteOptions {
  readonly gzip?: boolean;
  readonly key?: string;
  /**
   * The most bytes of one JSON-lines file: past it the next `<stage>_0000N.jsonl` starts. A file is held in
   * memory until written (a tar entry states its size first), so this bounds the memory of an export. Strapi
   * reads any number of such files per stage. Default 16 MiB (Strapi's own export uses 256 MB).
   */
  readonly maxJsonlBytes?: number;
}

const DEFAULT_MAX_JSONL_BYTES = 16 * 1024 * 1024;

/**
 * Writes a Strapi export archive: JSON-lines stages rotated as Strapi names them, asset files streamed, gzip and
 * encryption as asked. Entries are awaited one at a time, so what waits for the disk stays small.
 *
 * @example
 * const out = createArchiveWriter('export.tar.gz', { gzip: true });
 * const entities = out.jsonl('entities'); await entities.write({ type, id, data }); await entities.close();
 * await out.finish();
 */
export function createArchiveWriter(file: string, options: ArchiveWriteOptions = {}) {
  const pack = tar.pack();
  const maxBytes = options.maxJsonlBytes ?? DEFAULT_MAX_JSONL_BYTES;
  let stream: Readable = pack as unknown as Readable;
  if (options.gzip !== false) stream = stream.pipe(createGzip());
  if (options.key !== undefined) stream = stream.pipe(createEncryptStream(options.key));
  // Owner-only (0600): an export holds every row, users' bcrypt hashes and reset tokens included.
  const out: Writable = createWriteStream(file, { mode: 0o600 });
  let failure: Error | undefined;
  const done = new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => {
      failure ??= error;
      reject(error);
    };
    stream.on('error', fail);
    out.on('error', fail).on('close', () => (failure ? reject(failure) : resolve()));
  });
  done.catch(() => undefined);
  stream.pipe(out);

  const entry = (name: string, content: Buffer): Promise<void> =>
    new Promise((resolve, reject) => {
      if (failure) return reject(failure);
      pack.entry({ name, size: content.length, mtime: new Date() }, content, (error) => (error ? reject(error) : resolve()));
    });

  return {
    /** A JSON-lines stage (`schemas`, `entities`, `links`, `configuration`), one value per line. */
    jsonl(stage: string) {
      let index = 0;
      let lines: Buffer[] = [];
      let bytes = 0;
      const flush = async () => {
        if (lines.length === 0) return;
        index++;
        const content = Buffer.concat(lines);
        lines = [];
        bytes = 0;
        await entry(`${stage}/${stage}_${String(index).padStart(5, '0')}.jsonl`, content);
      };
      return {
        async write(value: unknown): Promise<void> {
          const line = Buffer.from(`${JSON.stringify(value)}\n`);
          if (bytes + line.length > maxBytes) await flush();
          lines.push(line);
          bytes += line.length;
        },
        close: flush,
      };
    },
    /** A file streamed from `source` whose size is known. */
    file(name: string, size: number, source: Readable): Promise<void> {
      return new Promise((resolve, reject) => {
        if (failure) return reject(failure);
        const sink = pack.entry({ name, size, mtime: new Date() }, (error) => (error ? reject(error) : resolve()));
        source.on('error', (error) => {
          sink.destroy(error);
          reject(error);
        });
        source.pipe(sink as unknown as Writable);
      });
    },
    /** A small file written whole. */
    buffer: (name: string, content: Buffer | string) => entry(name, Buffer.from(content)),
    /** Ends the archive and waits until the file is written. */
    async finish(): Promise<void> {
      pack.finalize();
      await done;
    },
    /** Stops writing and removes the partial file. */
    async abort(): Promise<void> {
      pack.destroy();
      out.destroy();
      await rm(file, { force: true });
    },
  };
}

export type ArchiveWriter = ReturnType<typeof createArchiveWriter>;
