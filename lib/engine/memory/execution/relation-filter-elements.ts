import type { Filter, Pipeline, Row } from '../../types';
import { isObject, isPlainField } from './eligibility';
import { compileRowTest } from './match-rows';
import { NON_EMPTY, readsTempsBySize, semiJoinOf } from './semi-join';
import type { StageContext } from './stage-context';
import { BoundedMemo } from '../../../util/bounded-memo';
import { engineMemos, OBJECT_BYTES, SLOT_BYTES } from './memo-budget';
import { stableId } from './stable-arrays';

/**
 * The rows the `$match` keeps when it asks of each joined array only whether it is empty (`{ __rf<N>: { $size: 0 } }`,
 * what pipeline/compile-filters emits) and each `$lookup` joins a top-level `localField` without `let` through a
 * pipeline whose `$limit`s come after its last `$match`: then the array of a row whose local value is an array of
 * strings is empty exactly when the join of each of its elements is. MongoDB joins an array `localField` on its
 * elements ("Use $lookup with an Array": https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/),
 * so the join of an array is the union of its elements' joins, and the row-wise stages (`$match`, `$lookup`,
 * `$project`...) keep a row of the union exactly when they keep it in the element's join. Each distinct element
 * (and each distinct scalar local value) is joined once, by the same `$lookup` stage on a row holding it alone:
 * at 100,000 articles a to-many relation's arrays are nearly all distinct, their elements are the few target
 * documents. Undefined when the stages have another shape, null when a row already holds a temp field.
 *
 * @example
 * keptByElements(cx, scope, [{ $lookup: { from: 'categories', localField: 'categories', foreignField: 'documentId',
 *   pipeline: [{ $match: { name: 'News' } }, { $limit: 1 }], as: '__rf1' } }], { $nor: [{ __rf1: { $size: 0 } }] }, ['__rf1'])
 * // the rows of scope with at least one category named News
 */
export function keptByElements(cx: StageContext, rows: readonly Row[], lookups: Pipeline, match: Filter, tempNames: readonly string[]): Row[] | null | undefined {
  const temps = new Set(tempNames);
  if (!readsTempsBySize(match, temps)) return undefined;
  for (const stage of lookups) {
    const { localField, let: letSpec, pipeline } = stage.$lookup as Record<string, unknown>;
    if (letSpec !== undefined || typeof localField !== 'string' || !isPlainField(localField) || temps.has(localField)) return undefined;
    if (!decomposes(pipeline)) return undefined;
  }
  const nonEmpty = joinedNonEmpty(cx, rows, lookups);
  if (!nonEmpty) return null;
  const test = compileRowTest(match, cx.options);
  const fields = matchFields(match);
  const tempsOnly = fields !== null && [...fields].every((f) => temps.has(f));
  const verdicts = new Map<string, boolean>();
  return rows.filter((row, i) => {
    const seen: Row = tempsOnly ? {} : fields ? pick(row, fields) : { ...row };
    tempNames.forEach((temp, j) => (seen[temp] = nonEmpty[j]![i] ? [NON_EMPTY] : []));
    if (!tempsOnly) return test(seen);
    const key = nonEmpty.map((flags) => (flags[i] ? 1 : 0)).join('');
    let verdict = verdicts.get(key);
    if (verdict === undefined) verdicts.set(key, (verdict = test(seen)));
    return verdict;
  });
}

/** Stages whose output rows each depend on one input row alone, and that keep or drop it by itself. */
const ROW_WISE = new Set(['$match', '$lookup', '$project', '$unset', '$addFields', '$set']);

/**
 * True when a `$lookup`'s pipeline keeps some row of a union of inputs exactly when it keeps some row of one of
 * them: row-wise stages, and `$limit`s of at least one row after the last `$match` (a `$limit` before a
 * `$match` keeps the first rows of the union, which may all be dropped).
 */
function decomposes(pipeline: unknown): boolean {
  if (pipeline === undefined) return true;
  if (!Array.isArray(pipeline)) return false;
  let limited = false;
  for (const stage of pipeline) {
    if (!isObject(stage) || Object.keys(stage).length !== 1) return false;
    const name = Object.keys(stage)[0]!;
    if (name === '$limit') {
      const n = stage.$limit;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) return false;
      limited = true;
    } else if (!ROW_WISE.has(name) || (limited && name === '$match')) {
      return false;
    }
  }
  return true;
}

/**
 * The probe rows of one local field over `rows`: one per distinct key, the key of a row being each element of its
 * non-empty array of strings, or its scalar value (see {@link isScalarKey}; an element and an equal scalar join
 * alike), or the row alone for any other value (an empty array, which joins as null, arrays of other values,
 * documents). `keys[i]` is row i's probe, or ELEMENTS: then its probes are `elements[starts[i]]` up to
 * `elements[starts[i + 1]]`.
 */
interface Probing {
  readonly probes: readonly Row[];
  readonly keys: Int32Array;
  readonly starts: Int32Array;
  readonly elements: Int32Array;
}

/**
 * Probings of stable input arrays (a cached scope), by local field and temp: a write to the target keeps them.
 * Within the engine's memo budget.
 */
const probingsOf = new BoundedMemo<readonly Row[], Map<string, Probing | null>>(engineMemos, (byKey) => {
  let bytes = OBJECT_BYTES;
  for (const probing of byKey.values()) bytes += probingBytes(probing);
  return bytes;
});

/** The bytes a probing holds: its probe rows (one small object each), and its typed arrays. */
function probingBytes(probing: Probing | null): number {
  if (probing === null) return OBJECT_BYTES;
  return 4 * OBJECT_BYTES + probing.probes.length * (OBJECT_BYTES + 2 * SLOT_BYTES) + probing.keys.byteLength + probing.starts.byteLength + probing.elements.byteLength;
}

/**
 * Whether each `$lookup` joins at least one row to each of `rows`, each distinct key joined once by the stage
 * itself. Reading 100,000 rows' keys costs more than joining them (string hashing), so the keys of a stable input
 * are read once. Null when a row holds an `as` field.
 */
function joinedNonEmpty(cx: StageContext, rows: readonly Row[], stages: Pipeline): boolean[][] | null {
  const out: boolean[][] = [];
  for (const stage of stages) {
    const { localField, as } = stage.$lookup as { localField: string; as: string };
    const p = probingOf(rows, localField, as);
    if (!p) return null;
    const flags = joinedFlags(cx, stage, p.probes, as);
    const nonEmpty = new Array<boolean>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const key = p.keys[i]!;
      if (key !== ELEMENTS) {
        nonEmpty[i] = flags[key]!;
        continue;
      }
      let some = false;
      for (let j = p.starts[i]!; j < p.starts[i + 1]! && !some; j++) some = flags[p.elements[j]!]!;
      nonEmpty[i] = some;
    }
    out.push(nonEmpty);
  }
  return out;
}

/**
 * Whether the `$lookup` joins anything to each probe: as a semi-join (execution/semi-join: no joined array, each
 * target row tested once, nested relation filters too) when the path relation-filter-semi-join is on and the
 * stage has its shape, else by the stage itself.
 */
function joinedFlags(cx: StageContext, stage: Record<string, unknown>, probes: readonly Row[], as: string): boolean[] {
  const semi = semiJoinOf(cx, stage);
  if (semi) {
    const joins = semi.start();
    return probes.map((probe) => joins(probe));
  }
  return cx.compile([stage])(probes, false, {}).rows.map((row) => (row[as] as unknown[]).length > 0);
}

function probingOf(rows: readonly Row[], localField: string, as: string): Probing | null {
  const stable = stableId(rows) !== undefined;
  const cacheKey = `${localField}\u0000${as}`;
  const cached = stable ? probingsOf.get(rows)?.get(cacheKey) : undefined;
  if (cached !== undefined) return cached;
  const probeOf = new Map<unknown, number>();
  const probes: Row[] = [];
  const probe = (key: unknown, row: Row): number => {
    let at = probeOf.get(key);
    if (at === undefined) probeOf.set(key, (at = probes.push(row) - 1));
    return at;
  };
  const keys = new Int32Array(rows.length);
  const starts = new Int32Array(rows.length + 1);
  const elements: number[] = [];
  let probing: Probing | null = null;
  scan: {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      starts[i] = elements.length;
      if (Object.hasOwn(row, as)) break scan;
      const value = row[localField];
      if (Array.isArray(value) && value.length > 0 && value.every(isString)) {
        keys[i] = ELEMENTS;
        for (const element of value) elements.push(probe(element, { [localField]: element }));
      } else if (isScalarKey(value)) {
        keys[i] = probe(value ?? null, value === undefined ? {} : { [localField]: value });
      } else {
        keys[i] = probes.push({ [localField]: value }) - 1;
      }
    }
    starts[rows.length] = elements.length;
    probing = { probes, keys, starts, elements: Int32Array.from(elements) };
  }
  if (stable) {
    const byKey = probingsOf.get(rows) ?? probingsOf.set(rows, new Map<string, Probing | null>());
    if (byKey.size >= 16) byKey.clear();
    byKey.set(cacheKey, probing);
    probingsOf.grew(probingBytes(probing));
  }
  return probing;
}

const ELEMENTS = -1;
const isString = (value: unknown): value is string => typeof value === 'string';

/**
 * True for a local value keyed by itself: two such values join the same rows exactly when they are the same key
 * of a `Map` (SameValueZero): a string, a boolean, a finite number (0 and -0 are one number to MongoDB), null or
 * missing (both join as null). Any other value is joined alone.
 */
function isScalarKey(value: unknown): boolean {
  if (value === null || value === undefined || typeof value === 'string' || typeof value === 'boolean') return true;
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * The top-level fields a query filter reads, or null when it holds a top-level operator other than `$and` / `$or` /
 * `$nor`, or a field mingo does not read as a plain own property.
 */
function matchFields(filter: Filter, out = new Set<string>()): Set<string> | null {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!Array.isArray(value) || !value.every((f) => isObject(f) && matchFields(f, out))) return null;
    } else if (key.startsWith('$') || !isPlainField(key.split('.')[0]!)) {
      return null;
    } else {
      out.add(key.split('.')[0]!);
    }
  }
  return out;
}

function pick(row: Row, fields: ReadonlySet<string>): Row {
  const out: Row = {};
  for (const field of fields) if (Object.hasOwn(row, field)) out[field] = row[field];
  return out;
}
