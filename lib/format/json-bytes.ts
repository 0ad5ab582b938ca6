/** Strings at least this long are encoded by Buffer#write (native); shorter ones by a loop here (no call cost). */
const NATIVE_WRITE_LENGTH = 48;

/**
 * What may make JSON.stringify escape a string: `"`, `\\`, control characters and surrogates (lone ones are
 * escaped; strings holding pairs take the same slower path).
 */
export const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** No key: {@link JsonBytes.string} is {@link JsonBytes.keyString} without one. */
const NO_KEY = new Uint8Array(0);

/**
 * A growing buffer of UTF-8 JSON text, written piece by piece: the bytes of a response are produced directly,
 * without building a string first (a string made with `+` from thousands of pieces is a V8 rope, and turning it
 * into bytes walked every piece again: 0.07 ms to 0.12 ms of a 25-row populated list). Kept pieces (the text of
 * joined rows, see compile-document-json) are copied in as bytes.
 *
 * Every method writes exactly the bytes `Buffer.from(text, 'utf8')` gives for the text it stands for.
 *
 * @example
 * const out = new JsonBytes();
 * out.ascii('{"a":');
 * out.string('é');
 * out.ascii('}');
 * out.toBuffer().toString(); // '{"a":"é"}'
 */
export class JsonBytes {
  private buf: Buffer;
  private pos = 0;

  constructor(capacity = 16_384) {
    this.buf = Buffer.allocUnsafe(Math.max(64, capacity));
  }

  /** Bytes written so far. */
  get length(): number {
    return this.pos;
  }

  /** Text made only of ASCII characters (JSON punctuation, numbers, keys checked when compiled). */
  ascii(text: string): void {
    const n = text.length;
    this.room(n);
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < n; i++) buf[pos++] = text.charCodeAt(i);
    this.pos = pos;
  }

  /** Any text, as UTF-8 (a lone surrogate becomes U+FFFD, as Buffer.from writes it). */
  text(text: string): void {
    const n = text.length;
    this.room(n * 3);
    if (n >= NATIVE_WRITE_LENGTH) {
      this.pos += this.buf.write(text, this.pos, 'utf8');
      return;
    }
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < n; i++) {
      let c = text.charCodeAt(i);
      if (c < 0x80) {
        buf[pos++] = c;
      } else if (c < 0x800) {
        buf[pos++] = 0xc0 | (c >> 6);
        buf[pos++] = 0x80 | (c & 0x3f);
      } else {
        if (c >= 0xd800 && c <= 0xdfff) {
          const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
          if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
            c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
            i++;
            buf[pos++] = 0xf0 | (c >> 18);
            buf[pos++] = 0x80 | ((c >> 12) & 0x3f);
            buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
            buf[pos++] = 0x80 | (c & 0x3f);
            continue;
          }
          c = 0xfffd;
        }
        buf[pos++] = 0xe0 | (c >> 12);
        buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
        buf[pos++] = 0x80 | (c & 0x3f);
      }
    }
    this.pos = pos;
  }

  /** `JSON.stringify(text)`: strings with nothing to escape (most) are written between quotes as they are. */
  string(text: string): void {
    this.keyString(NO_KEY, text);
  }

  /**
   * `key` (kept bytes: an object's `,"name":`, see object-json) then `JSON.stringify(text)`, with one check of
   * the room left: short ASCII strings with nothing to escape are copied in the same pass as the key; anything
   * else takes the general path.
   */
  keyString(key: Uint8Array, text: string): void {
    const k = key.length;
    const n = text.length;
    this.room(k + n + 2);
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < k; i++) buf[pos++] = key[i]!;
    if (n < NATIVE_WRITE_LENGTH) {
      const quote = pos;
      buf[pos++] = 0x22;
      let i = 0;
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x80 || c < 0x20 || c === 0x22 || c === 0x5c) break;
        buf[pos++] = c;
      }
      if (i === n) {
        buf[pos++] = 0x22;
        this.pos = pos;
        return;
      }
      pos = quote;
    }
    this.pos = pos;
    if (NEEDS_ESCAPE.test(text)) {
      this.text(JSON.stringify(text));
      return;
    }
    this.byte(0x22);
    this.text(text);
    this.byte(0x22);
  }

  /** `key` (kept bytes) then ASCII text (a number, `true`, `null`...), with one check of the room left. */
  keyAscii(key: Uint8Array, text: string): void {
    const k = key.length;
    const n = text.length;
    this.room(k + n);
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < k; i++) buf[pos++] = key[i]!;
    for (let i = 0; i < n; i++) buf[pos++] = text.charCodeAt(i);
    this.pos = pos;
  }

  /**
   * Ends an object whose entries were written since `start` each with its leading comma (object-json): the first
   * entry's comma becomes the `{`; `{}` when none was written.
   */
  endObject(start: number): void {
    if (this.pos === start) {
      this.ascii('{}');
      return;
    }
    this.buf[start] = 0x7b;
    this.byte(0x7d);
  }

  /** One ASCII character, by its code. */
  byte(code: number): void {
    if (this.pos === this.buf.length) this.room(1);
    this.buf[this.pos++] = code;
  }

  /** Bytes written earlier (a kept piece). */
  bytes(bytes: Uint8Array): void {
    const n = bytes.length;
    this.room(n);
    if (n >= 64) {
      this.buf.set(bytes, this.pos);
      this.pos += n;
      return;
    }
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < n; i++) buf[pos++] = bytes[i]!;
    this.pos = pos;
  }

  /** Drops what was written since `start` (a position read from {@link length}). */
  rewind(start: number): void {
    this.pos = start;
  }

  /** A copy of what was written since `start` (a position read from {@link length}). */
  since(start: number): Uint8Array {
    return Uint8Array.prototype.slice.call(this.buf, start, this.pos);
  }

  /** The bytes written (a view of the buffer: write nothing more once it is handed out). */
  toBuffer(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }
}

/** UTF-8 bytes of `text`, for pieces compiled once (keys). */
export function bytesOf(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'utf8'));
}
