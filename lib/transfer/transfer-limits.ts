import { TransferError } from './transfer-error';

/**
 * What an import reads at most, so that a hostile or broken export is refused (a {@link TransferError} naming the
 * entry) before it can exhaust the process's memory or the disk. The defaults fit every export Strapi writes of
 * data MongoDB can store.
 */
export interface TransferLimits {
  /**
   * The longest line of a JSON-lines file (an entity, a link, a schema, a configuration line) and the largest
   * `metadata.json`, in bytes. Default 16 MiB: one line is one row, and MongoDB stores no document over 16 MiB
   * (https://www.mongodb.com/docs/manual/reference/limits/#mongodb-limit-BSON-Document-Size).
   */
  readonly maxLineBytes?: number;
  /** The largest media file (an entry of `assets/uploads/`), in bytes, as its tar header declares it. Default 1 GiB. */
  readonly maxAssetBytes?: number;
  /**
   * The deepest nesting of a line's JSON value (objects and arrays). Default 64: MongoDB stores documents nested
   * 100 levels at most (https://www.mongodb.com/docs/manual/reference/limits/#mongodb-limit-Nested-Depth-for-BSON-Documents),
   * and an entity's data sits inside its row (components, dynamic zones).
   */
  readonly maxDepth?: number;
}

export const DEFAULT_LIMITS: Required<TransferLimits> = { maxLineBytes: 16 * 1024 * 1024, maxAssetBytes: 1024 * 1024 * 1024, maxDepth: 64 };

/** The limits of an import: the defaults, with those given checked (positive integers). */
export function resolveLimits(limits: TransferLimits = {}): Required<TransferLimits> {
  const out = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof TransferLimits)[]) {
    const value = limits[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) throw new TransferError(`limits.${key}: expected a positive integer, got ${JSON.stringify(value)}`);
    out[key] = value;
  }
  return out;
}

/**
 * Keys a JSON value may not hold at any depth: `__proto__` is an own key when JSON.parse reads it, and any code that
 * copies or indexes the value by key would take it as the object's prototype. `constructor` and `prototype` are
 * refused where they would name something (an attribute, a format): see entity-row.
 */
const PROTOTYPE_KEY = '__proto__';

const label = (path: readonly (string | number)[]): string =>
  path.length === 0 ? 'the line' : path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');

/**
 * Why a parsed line cannot be imported (a `__proto__` key, or nested deeper than `maxDepth`), naming where in the
 * value; undefined when it can. Recursion stops at `maxDepth`, so the walk itself is bounded.
 *
 * @example
 * checkJsonValue(JSON.parse('{"data":{"__proto__":null}}'), 64) // 'the key "__proto__" at data: ...'
 */
export function checkJsonValue(value: unknown, maxDepth: number): string | undefined {
  const path: (string | number)[] = [];
  const walk = (v: unknown, depth: number): string | undefined => {
    if (typeof v !== 'object' || v === null) return undefined;
    if (depth > maxDepth) return `nested deeper than ${maxDepth} levels at ${label(path)} (maxDepth)`;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        const problem = walk(v[i], depth + 1);
        if (problem) return problem;
        path.pop();
      }
      return undefined;
    }
    for (const key of Object.keys(v)) {
      if (key === PROTOTYPE_KEY) return `the key "__proto__" at ${label(path)}: a prototype key is never data`;
      path.push(key);
      const problem = walk((v as Record<string, unknown>)[key], depth + 1);
      if (problem) return problem;
      path.pop();
    }
    return undefined;
  };
  return walk(value, 1);
}
