import { bytesToHumanReadable, bytesToKbytes, fileExtension, generateHash, sanitizeFileName, sanitizeMime, slugifyName } from '../../../lib/media/file-name';

describe('sanitizeFileName', () => {
  test.each([
    ['logo.png', 'logo.png'],
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\windows\\win.ini', 'win.ini'],
    ['a\u0000b\u0007c\u001f.png', 'abc.png'],
    ['bad<>:"|?*name.txt', 'badname.txt'],
    ['..', 'file'],
    ['.hidden', 'hidden'],
    ['', 'file'],
    ['   ', 'file'],
    ['line\nbreak\r.png', 'linebreak.png'],
  ])('%j -> %j', (raw, expected) => {
    expect(sanitizeFileName(raw)).toBe(expected);
  });

  test('long names are cut to 255 characters, keeping the extension', () => {
    const name = sanitizeFileName(`${'x'.repeat(400)}.jpeg`);
    expect(name).toHaveLength(255);
    expect(name.endsWith('.jpeg')).toBe(true);
  });
});

describe('slugifyName / generateHash', () => {
  test.each([
    ['logo-named', 'logo_named'],
    ['pair-a', 'pair_a'],
    ['my photo (1)', 'my_photo_1'],
    ['Crème brûlée', 'Creme_brulee'],
    ['fooBar', 'foo_Bar'],
    ['R&D', 'R_and_D'],
    ['---', ''],
  ])('%j -> %j', (name, slug) => {
    expect(slugifyName(name)).toBe(slug);
  });

  test('hash = slug of the name without extension + _ + 10 hex characters', () => {
    expect(generateHash('logo-named.png', '.png')).toMatch(/^logo_named_[0-9a-f]{10}$/);
    expect(generateHash('logo-named.png', '.png', () => '0123456789')).toBe('logo_named_0123456789');
    expect(generateHash('日本.png', '.png', () => 'abcdefabcd')).toBe('file_abcdefabcd');
  });
});

describe('sizes, extensions, MIME types', () => {
  test.each([
    [45, 0.05],
    [852, 0.85],
    [89673, 89.67],
    [1000, 1],
  ])('%d bytes = %d KB', (bytes, kb) => {
    expect(bytesToKbytes(bytes)).toBe(kb);
  });

  test('human readable limits', () => {
    expect(bytesToHumanReadable(200 * 1024 * 1024)).toBe('210 MB');
    expect(bytesToHumanReadable(1000)).toBe('1 KB');
    expect(bytesToHumanReadable(0)).toBe('0 Bytes');
  });

  test('extension from the name, else from the MIME type', () => {
    expect(fileExtension('notes.txt', 'text/plain')).toBe('.txt');
    expect(fileExtension('noext', 'image/png')).toBe('.png');
    expect(fileExtension('weird.p%ng', 'application/x-unknown')).toBe('');
  });

  test('MIME types are checked', () => {
    expect(sanitizeMime('Image/PNG')).toBe('image/png');
    expect(sanitizeMime('text/html\r\nX-Evil: 1')).toBe('application/octet-stream');
    expect(sanitizeMime(undefined)).toBe('application/octet-stream');
  });
});
