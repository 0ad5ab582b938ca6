import { createCipheriv, createDecipheriv, scryptSync, type Cipher, type Decipher } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * Strapi's export encryption (`strapi export --key`, strapi/strapi packages/core/data-transfer/src/utils/encryption):
 * AES-128-ECB with the key derived by scrypt (`scryptSync(key, salt, 16)`, Node's default cost). Released Strapi
 * versions write no header and derive with an empty salt (the "legacy" format, which every Strapi 5 import reads);
 * the newer format starts with the header `STRAPI2\0`, a version byte (2), a salt-length byte (16) and the salt.
 * We write the legacy format and read both.
 */
const ALGORITHM = 'aes-128-ecb';
const V2_MAGIC = Buffer.from('STRAPI2\0', 'latin1');
const V2_SALT_LENGTH = 16;
const V2_HEADER_LENGTH = V2_MAGIC.length + 2 + V2_SALT_LENGTH;

const deriveKey = (key: string, salt: Buffer | string): Buffer => scryptSync(key, salt, 16);

/** The cipher of a Strapi-compatible encrypted export (legacy format: no header, empty salt). */
export function createEncryptStream(key: string): Cipher {
  return createCipheriv(ALGORITHM, deriveKey(key, ''), null);
}

/** The salt of a `STRAPI2` header at the start of `head`, null when `head` has none. */
function v2Salt(head: Buffer): Buffer | null {
  if (head.length < V2_HEADER_LENGTH || !head.subarray(0, V2_MAGIC.length).equals(V2_MAGIC)) return null;
  if (head[V2_MAGIC.length] !== 2 || head[V2_MAGIC.length + 1] !== V2_SALT_LENGTH) return null;
  return head.subarray(V2_MAGIC.length + 2, V2_HEADER_LENGTH);
}

/** The first plain bytes of an encrypted export's first bytes `head` (a whole block or more), for a look at them. */
export function decryptHead(head: Buffer, key: string): Buffer {
  const salt = v2Salt(head);
  return createDecipheriv(ALGORITHM, deriveKey(key, salt ?? ''), null).update(salt ? head.subarray(V2_HEADER_LENGTH) : head);
}

/**
 * Decrypts an encrypted export, either format: the first bytes say which. A wrong key ends in an error from the
 * last block's padding (or, rarely, in bytes that are no archive): the reader reports both as a wrong key.
 */
export function createDecryptStream(key: string): Transform {
  let decipher: Decipher | null = null;
  let head = Buffer.alloc(0);
  const start = (bytes: Buffer): Buffer => {
    const salt = v2Salt(bytes);
    decipher = createDecipheriv(ALGORITHM, deriveKey(key, salt ?? ''), null);
    return decipher.update(salt ? bytes.subarray(V2_HEADER_LENGTH) : bytes);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      try {
        if (decipher) return callback(null, decipher.update(chunk));
        head = Buffer.concat([head, chunk]);
        const undecided = head.length < V2_HEADER_LENGTH && V2_MAGIC.subarray(0, Math.min(head.length, V2_MAGIC.length)).equals(head.subarray(0, V2_MAGIC.length));
        if (undecided) return callback();
        callback(null, start(head));
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        const rest = decipher ? Buffer.alloc(0) : start(head);
        callback(null, Buffer.concat([rest, (decipher as Decipher | null)?.final() ?? Buffer.alloc(0)]));
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}
