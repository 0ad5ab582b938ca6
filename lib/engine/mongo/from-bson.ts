import type { Row } from '../types';

interface HexId {
  _bsontype: 'ObjectId' | 'ObjectID';
  toHexString(): string;
}

function isObjectId(value: object): value is HexId {
  const tag = (value as { _bsontype?: unknown })._bsontype;
  return tag === 'ObjectId' || tag === 'ObjectID';
}

/**
 * Turns what the driver returns into plain rows like the memory engine's: every ObjectId (a row's `_id`,
 * including rows joined by `$lookup`, or data written by other tools) becomes its 24-character hex string.
 *
 * @example
 * fromBson(await collection.find({}).toArray())
 */
export function fromBson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v: unknown) => fromBson(v)) as T;
  if (isObjectId(value)) return value.toHexString() as T;
  if (value instanceof Date) return value;
  const out: Row = {};
  for (const key of Object.keys(value)) out[key] = fromBson((value as Row)[key]);
  return out as T;
}
