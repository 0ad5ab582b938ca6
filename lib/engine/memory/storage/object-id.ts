import { randomBytes } from 'node:crypto';

const PROCESS_UNIQUE = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

/**
 * A new engine row id shaped like a MongoDB ObjectId's hex string (4-byte seconds, 5-byte process-unique
 * random, 3-byte counter), so ids stay unique across restarts without being persisted anywhere.
 *
 * @example
 * createObjectId() // '66a1f0c2e3b4a5c6d7000001'
 */
export function createObjectId(): string {
  counter = (counter + 1) % 0x1000000;
  const seconds = Math.floor(Date.now() / 1000).toString(16).padStart(8, '0');
  return seconds + PROCESS_UNIQUE + counter.toString(16).padStart(6, '0');
}
