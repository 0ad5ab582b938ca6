import { createCipheriv, randomBytes, scryptSync } from 'node:crypto';
import { Readable } from 'node:stream';
import { createDecryptStream, createEncryptStream } from '../../lib/transfer/encryption';

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** `data` in small pieces, as a file stream may deliver it (a header split across chunks). */
const pieces = (data: Buffer, size = 5) => Readable.from(Array.from({ length: Math.ceil(data.length / size) }, (_, i) => data.subarray(i * size, (i + 1) * size)));

const plain = Buffer.from('a tar archive, or any bytes at all: '.repeat(40));

describe("Strapi's export encryption (AES-128-ECB, scrypt-derived key)", () => {
  it('writes the format Strapi releases write: no header, scrypt(key, "", 16)', async () => {
    const encrypted = await collect(Readable.from([plain]).pipe(createEncryptStream('k')));
    const strapi = createCipheriv('aes-128-ecb', scryptSync('k', '', 16), null);
    expect(encrypted.equals(Buffer.concat([strapi.update(plain), strapi.final()]))).toBe(true);
    expect(await collect(pieces(encrypted).pipe(createDecryptStream('k')))).toEqual(plain);
  });

  it("reads the newer format: 'STRAPI2\\0', version 2, a 16-byte salt, then scrypt(key, salt, 16)", async () => {
    const salt = randomBytes(16);
    const cipher = createCipheriv('aes-128-ecb', scryptSync('k', salt, 16), null);
    const header = Buffer.concat([Buffer.from('STRAPI2\0', 'latin1'), Buffer.from([2, 16]), salt]);
    const file = Buffer.concat([header, cipher.update(plain), cipher.final()]);
    expect(await collect(pieces(file, 3).pipe(createDecryptStream('k')))).toEqual(plain);
  });

  it('a wrong key ends in an error, not in bytes', async () => {
    const encrypted = await collect(Readable.from([plain]).pipe(createEncryptStream('k')));
    await expect(collect(Readable.from([encrypted]).pipe(createDecryptStream('not k')))).rejects.toThrow(/bad decrypt/);
  });
});
