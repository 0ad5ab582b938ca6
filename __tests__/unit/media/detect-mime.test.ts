import { ApplicationError } from '../../../lib/errors';
import { detectMime } from '../../../lib/media/detect-mime';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const ftyp = (brand: string) => bytes([0, 0, 0, 0x20], `ftyp${brand}\u0000\u0000\u0002\u0000isomiso2`);
const HTML = bytes('<!doctype html><html><script>alert(1)</script></html>');
const PDF = bytes('%PDF-1.7\n%\u00e2\u00e3');
const MP3 = bytes('ID3\u0003\u0000\u0000\u0000\u0000\u0000\u0000');
const WAV = bytes('RIFF\u0024\u0000\u0000\u0000WAVEfmt ');
const BMP = bytes('BM\u0036\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0036\u0000\u0000\u0000\u0028\u0000\u0000\u0000');

describe('detectMime (files sharp did not read as images)', () => {
  test.each([
    // an image, video or audio claim needs bytes of that kind
    ['image/png', HTML, 'application/octet-stream'],
    ['image/png', bytes(''), 'application/octet-stream'],
    ['image/png', PDF, 'application/pdf'],
    ['image/jpeg', MP3, 'audio/mpeg'],
    ['image/bmp', BMP, 'image/bmp'],
    ['image/png', BMP, 'image/png'],
    ['video/mp4', ftyp('isom'), 'video/mp4'],
    ['video/mp4', HTML, 'application/octet-stream'],
    ['audio/mp4', ftyp('M4A '), 'audio/mp4'],
    ['audio/ogg', bytes('OggS\u0000\u0002'), 'audio/ogg'],
    ['video/webm', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]), 'video/webm'],
    ['audio/wav', WAV, 'audio/wav'],
    ['audio/mpeg', PDF, 'application/pdf'],
    // other claims stand unless a signature of another non-media type says otherwise
    ['text/plain', bytes('hello'), 'text/plain'],
    ['text/csv', bytes('a,b\n1,2'), 'text/csv'],
    ['text/plain', PDF, 'application/pdf'],
    ['text/plain', bytes('BMW is a car'), 'text/plain'],
    ['text/plain', bytes('ID3 tags are metadata'), 'text/plain'],
    ['application/pdf', PDF, 'application/pdf'],
    // a generic type becomes what the bytes are (as Strapi stores the detected type)
    ['application/octet-stream', ftyp('isom'), 'video/mp4'],
    ['application/octet-stream', MP3, 'audio/mpeg'],
    ['application/octet-stream', HTML, 'application/octet-stream'],
  ])('claimed %s, bytes %#: %s', (claimed, head, expected) => {
    expect(detectMime(claimed, head)).toBe(expected);
  });

  test.each([
    ['PNG', bytes('\u0089PNG\r\n\u001a\nnot really')],
    ['JPEG', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46])],
    ['GIF', bytes('GIF89a\u0001')],
  ])('the signature of a format sharp decodes that sharp could not read (%s) is a 400 "File is not a valid image"', (_format, head) => {
    for (const claimed of ['image/png', 'text/plain', 'application/octet-stream']) {
      expect(() => detectMime(claimed, head)).toThrow(ApplicationError);
      expect(() => detectMime(claimed, head)).toThrow('File is not a valid image');
    }
  });
});
