import type { MediaAttribute, RelationAttribute } from '../types';
import { bodyKeyError, relationShapeError } from './body-errors';
import { isPlainObject } from './model-lookup';

const WRAPPER_KEYS = new Set(['connect', 'disconnect', 'set', 'options']);
const ITEM_KEYS = new Set(['documentId', 'id', 'locale', 'status', 'position']);
const POSITION_KEYS = new Set(['before', 'after', 'start', 'end', 'locale', 'status']);

const isId = (v: unknown): boolean =>
  (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) || (typeof v === 'string' && /^\d{1,15}$/.test(v));

function isRelationItem(item: unknown): boolean {
  if (typeof item === 'string') return true;
  if (typeof item === 'number') return Number.isSafeInteger(item);
  if (!isPlainObject(item)) return false;
  for (const key of Object.keys(item)) if (!ITEM_KEYS.has(key)) throw bodyKeyError(key, null);
  if (item.documentId === undefined && item.id === undefined) return false;
  if (item.documentId !== undefined && typeof item.documentId !== 'string') return false;
  if (item.id !== undefined && !isId(item.id)) return false;
  if (item.locale !== undefined && item.locale !== null && typeof item.locale !== 'string') return false;
  if (item.status !== undefined && item.status !== 'draft' && item.status !== 'published') return false;
  return item.position === undefined || isPosition(item.position);
}

function isPosition(position: unknown): boolean {
  if (!isPlainObject(position)) return false;
  for (const key of Object.keys(position)) if (!POSITION_KEYS.has(key)) throw bodyKeyError(key, null);
  const { before, after, start, end } = position;
  return (
    (before === undefined || typeof before === 'string' || isId(before)) &&
    (after === undefined || typeof after === 'string' || isId(after)) &&
    (start === undefined || typeof start === 'boolean') &&
    (end === undefined || typeof end === 'boolean')
  );
}

const isMediaItem = (item: unknown): boolean => isId(item) || (isPlainObject(item) && isId(item.id));

/** One item or an array of items, each accepted by `isItem`. */
const itemsOk = (value: unknown, isItem: (v: unknown) => boolean): boolean =>
  Array.isArray(value) ? value.every(isItem) : isItem(value);

function wrapperOk(value: Record<string, unknown>, isItem: (v: unknown) => boolean): boolean {
  for (const key of Object.keys(value)) if (!WRAPPER_KEYS.has(key)) throw bodyKeyError(key, null);
  for (const key of ['connect', 'disconnect', 'set']) {
    if (value[key] !== undefined && !itemsOk(value[key], isItem)) return false;
  }
  return value.options === undefined || isPlainObject(value.options);
}

const isWrapper = (value: Record<string, unknown>): boolean =>
  Object.keys(value).some((k) => WRAPPER_KEYS.has(k));

/**
 * Checks the shape of a relation or media value (the documents service resolves the targets). Accepted:
 * null; a documentId string or a row id; an array of those or of `{ documentId | id, locale?, status?,
 * position? }`; `{ connect?, disconnect?, set?, options? }` whose lists hold the same items. Media take file
 * ids (numbers or numeric strings) or objects with an `id`. Throws a 400 otherwise.
 */
export function checkRelationShape(attr: RelationAttribute | MediaAttribute, value: unknown, path: readonly string[]): void {
  if (value === null || value === undefined) return;
  const isItem = attr.kind === 'media' ? isMediaItem : isRelationItem;
  let ok: boolean;
  if (Array.isArray(value)) {
    ok = value.every(isItem) && (attr.kind !== 'media' || attr.multiple || value.length <= 1);
  } else if (isPlainObject(value) && isWrapper(value)) {
    ok = wrapperOk(value, isItem);
  } else {
    ok = isItem(value);
  }
  if (!ok) throw relationShapeError(path);
}
