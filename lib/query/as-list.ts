/** A plain object (what qs produces for `a[b]=c`), not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** true when every key is an array index (qs turns `a[200]=x` into an object once past `arrayLimit`). */
export function isIndexObject(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((k) => /^\d+$/.test(k));
}

/**
 * Reads an array the way qs may give it: a real array, or an object keyed by indexes (in index order).
 * Returns undefined for anything else.
 */
export function asList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (isIndexObject(value)) {
    return Object.keys(value)
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => value[String(k)]);
  }
  return undefined;
}

/** `Object.hasOwn` lookup: never reaches `constructor`, `toString` or other inherited members. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
