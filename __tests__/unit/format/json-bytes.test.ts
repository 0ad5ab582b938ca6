import { JsonBytes } from '../../../lib/format/json-bytes';
import { prng } from '../../helpers/prng';

const UNITS = ['a', 'Z', '~', '\u007f', '\u0080', 'é', '\u07ff', '\u0800', '中', '\uffff', '😀', '\ud83d', '\ude00', '\ud800', '\udfff', '"', '\\', '\n', '\u0000', '\u001f', '\u2028'];

describe('JsonBytes', () => {
  const random = (rand: () => number, length: number): string =>
    Array.from({ length }, () => UNITS[Math.floor(rand() * UNITS.length)]).join('');

  it('text() gives the bytes of Buffer.from(text), short (loop) and long (native) texts, lone surrogates included', () => {
    const rand = prng(7);
    for (let i = 0; i < 3000; i++) {
      const text = random(rand, Math.floor(rand() * 120));
      const out = new JsonBytes(64);
      out.text(text);
      expect(out.toBuffer().equals(Buffer.from(text, 'utf8'))).toBe(true);
    }
  });

  it('string() gives the bytes of JSON.stringify(text)', () => {
    const rand = prng(11);
    for (let i = 0; i < 3000; i++) {
      const text = random(rand, Math.floor(rand() * 80));
      const out = new JsonBytes(64);
      out.string(text);
      expect(out.toBuffer().toString('utf8')).toBe(JSON.stringify(text));
    }
  });

  it('keyString() and keyAscii() write the key, then JSON.stringify(text) or the text; short, long, ASCII or not', () => {
    const rand = prng(13);
    const key = Buffer.from(',"clé":');
    for (let i = 0; i < 3000; i++) {
      const text = random(rand, Math.floor(rand() * 120));
      const out = new JsonBytes(16);
      out.keyString(key, text);
      out.keyAscii(key, String(i));
      expect(out.toBuffer().toString('utf8')).toBe(`,"clé":${JSON.stringify(text)},"clé":${i}`);
    }
  });

  it('endObject() makes the leading comma of the first entry the `{`, and writes {} when there is none', () => {
    const out = new JsonBytes(64);
    out.ascii('[');
    let start = out.length;
    out.endObject(start);
    out.ascii(',');
    start = out.length;
    out.keyString(Buffer.from(',"a":'), 'x');
    out.keyAscii(Buffer.from(',"b":'), 'null');
    out.endObject(start);
    out.ascii(']');
    expect(out.toBuffer().toString()).toBe('[{},{"a":"x","b":null}]');
  });

  it('grows as needed and keeps what it wrote; since() copies, rewind() drops', () => {
    const out = new JsonBytes(64);
    out.ascii('[');
    const start = out.length;
    out.text('x'.repeat(500));
    const kept = out.since(start);
    out.bytes(kept);
    out.rewind(out.length - 100);
    out.ascii(']');
    expect(out.toBuffer().toString()).toBe(`[${'x'.repeat(900)}]`);
    kept[0] = 0x79;
    expect(out.toBuffer()[1]).toBe(0x78);
  });
});
