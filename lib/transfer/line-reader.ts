import type { Readable } from 'node:stream';
import { TransferError } from './transfer-error';

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * The lines of `stream` (`\n` or `\r\n`), numbered from 1, as strings. A line is held as bytes until its end, and
 * one over `maxBytes` stops the read with a {@link TransferError} naming `name` and the line: memory never holds
 * more than one line of `maxBytes` (node's readline has no such bound: one endless line grows until the process
 * dies).
 *
 * @example
 * for await (const { line, text } of readBoundedLines(entry.stream, entry.name, 16 * 1024 * 1024)) console.log(line, text);
 */
export async function* readBoundedLines(stream: Readable, name: string, maxBytes: number): AsyncGenerator<{ line: number; text: string }> {
  let parts: Buffer[] = [];
  let held = 0;
  let line = 1;
  const tooLong = () => new TransferError(`${name} line ${line}: longer than ${maxBytes} bytes (maxLineBytes); nothing was imported`);
  const take = (): string => {
    let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, held);
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    parts = [];
    held = 0;
    return bytes.toString('utf8');
  };
  for await (const data of stream) {
    const chunk = typeof data === 'string' ? Buffer.from(data) : (data as Buffer);
    let start = 0;
    for (let at = chunk.indexOf(NEWLINE, start); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
      if (held + at - start > maxBytes) throw tooLong();
      parts.push(chunk.subarray(start, at));
      held += at - start;
      yield { line, text: take() };
      line++;
      start = at + 1;
    }
    if (start < chunk.length) {
      if (held + chunk.length - start > maxBytes) throw tooLong();
      parts.push(chunk.subarray(start));
      held += chunk.length - start;
    }
  }
  if (held > 0) yield { line, text: take() };
}
