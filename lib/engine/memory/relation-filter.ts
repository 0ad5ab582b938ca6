import type { Filter, Pipeline, Row } from '../types';
import { planLookup } from './fast-lookup';
import { compileRowTest, isPlainField } from './match-rows';
import type { MemoryCollection } from './memory-collection';
import { compileStages, type StageContext } from './row-stages';
import { markStable, stableId } from './stable-arrays';
import { isObject, onlyKey } from './stage-shape';

/** The relation-filter stages of pipeline/compile-filters found by {@link planRelationFilter}. */
export interface RelationFilterPlan {
  /** The `$lookup`s, each in the `localField`/`foreignField` form. */
  readonly lookups: Pipeline;
  readonly match: Filter;
  /** Their `as` fields, all unset after the `$match`. */
  readonly temps: readonly string[];
  /** The position of the stage after the `$unset`. */
  readonly next: number;
}

/**
 * Recognises, at `from`, the relation-filter stages of pipeline/compile-filters: one or more `$lookup`s with
 * `localField`/`foreignField` (MongoDB's concise correlated form), a `$match`, then `{ $unset: [every as] }`.
 * Null for any other shape.
 *
 * @example
 * planRelationFilter([{ $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [{ $limit: 1 }], as: '__rf1' } },
 *   { $match: { $nor: [{ __rf1: { $size: 0 } }] } }, { $unset: ['__rf1'] }], 0) // { lookups: [...], match: {...}, temps: ['__rf1'], next: 3 }
 */
export function planRelationFilter(pipeline: Pipeline, from: number): RelationFilterPlan | null {
  const temps: string[] = [];
  let i = from;
  for (; i < pipeline.length; i++) {
    const lookup = onlyKey(pipeline[i]!, '$lookup');
    if (!isObject(lookup)) break;
    const as = lookup.as;
    if (planLookup(lookup as never)?.kind !== 'equality' || typeof as !== 'string' || !isPlainField(as) || temps.includes(as)) return null;
    temps.push(as);
  }
  const match = pipeline[i] && onlyKey(pipeline[i]!, '$match');
  const unset = pipeline[i + 1] && onlyKey(pipeline[i + 1]!, '$unset');
  const names = typeof unset === 'string' ? [unset] : unset;
  if (temps.length === 0 || !isObject(match) || !Array.isArray(names) || names.length !== temps.length) return null;
  if (!temps.every((t) => names.includes(t))) return null;
  return { lookups: pipeline.slice(from, i), match, temps, next: i + 2 };
}

/**
 * The rows of `rows` the relation-filter stages keep, as the stored rows themselves (what the `$unset` gives
 * back), or null when a row already holds a temp field (the stages then run one by one). The stages run as they
 * are: the `$lookup`s through row-stages with a read-only context `cx` (each row joined by populate-lookup's
 * equality lookup: an index seek of the foreign field, MongoDB's semantics, on a shallow copy of the row), then
 * the `$match` on the joined rows; nothing of a second implementation. The result of a stable input (a cached
 * scope) is kept until one of the collections the lookups read changes (`collection` gives their versions).
 *
 * @example
 * runRelationFilter(readOnlyContext, (name) => collections.get(name)!, scope, plan)
 */
export function runRelationFilter(cx: StageContext, collection: (name: string) => MemoryCollection, rows: readonly Row[], plan: RelationFilterPlan): readonly Row[] | null {
  const key = cacheKey(collection, rows, plan);
  const cached = key === null ? undefined : results.get(rows)?.get(key);
  if (cached) return cached; // a stable input never changes: it held no temp field when this was computed
  const out = keptRows(cx, rows, plan);
  if (!out) return null;
  if (key !== null) {
    const byKey = results.get(rows) ?? new Map<string, Row[]>();
    if (byKey.size >= 64) byKey.clear();
    byKey.set(key, markStable(out));
    results.set(rows, byKey);
  }
  return out;
}

/** One `$lookup`'s result: the `as` array of row `i` is `arrays[at[i]]` (rows may share one). */
interface Joined {
  readonly at: readonly number[];
  readonly arrays: readonly unknown[];
}

/**
 * The rows the `$match` keeps, each tested as it is after the `$lookup`s, reduced to the fields the `$match`
 * reads (all of them when it holds an operator such as `$expr`). When it reads only the one temp field, the
 * verdict is taken once per distinct joined array.
 */
function keptRows(cx: StageContext, rows: readonly Row[], plan: RelationFilterPlan): Row[] | null {
  const byElements = keptByElements(cx, rows, plan);
  if (byElements !== undefined) return byElements;
  const joined = joinAll(cx, rows, plan);
  if (!joined) return null;
  const test = compileRowTest(plan.match, cx.options);
  const fields = matchFields(plan.match);
  const as = plan.temps[0]!;
  if (fields && joined.length === 1 && [...fields].every((f) => f === as)) {
    const { at, arrays } = joined[0]!;
    const verdicts = arrays.map((array) => test({ [as]: array }));
    return rows.filter((_row, i) => verdicts[at[i]!]);
  }
  return rows.filter((row, i) => {
    const seen = fields ? pick(row, fields) : { ...row };
    joined.forEach(({ at, arrays }, j) => (seen[plan.temps[j]!] = arrays[at[i]!]));
    return test(seen);
  });
}

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
 */
function keptByElements(cx: StageContext, rows: readonly Row[], plan: RelationFilterPlan): Row[] | null | undefined {
  const temps = new Set(plan.temps);
  if (!asksEmptinessOnly(plan.match, temps)) return undefined;
  for (const stage of plan.lookups) {
    const { localField, let: letSpec, pipeline } = stage.$lookup as Record<string, unknown>;
    if (letSpec !== undefined || typeof localField !== 'string' || !isPlainField(localField) || temps.has(localField)) return undefined;
    if (!decomposes(pipeline)) return undefined;
  }
  const nonEmpty = joinedNonEmpty(cx, rows, plan.lookups);
  if (!nonEmpty) return null;
  const test = compileRowTest(plan.match, cx.options);
  const fields = matchFields(plan.match);
  const tempsOnly = fields !== null && [...fields].every((f) => temps.has(f));
  const verdicts = new Map<string, boolean>();
  return rows.filter((row, i) => {
    const seen: Row = tempsOnly ? {} : fields ? pick(row, fields) : { ...row };
    plan.temps.forEach((temp, j) => (seen[temp] = nonEmpty[j]![i] ? [NON_EMPTY] : []));
    if (!tempsOnly) return test(seen);
    const key = nonEmpty.map((flags) => (flags[i] ? 1 : 0)).join('');
    let verdict = verdicts.get(key);
    if (verdict === undefined) verdicts.set(key, (verdict = test(seen)));
    return verdict;
  });
}

/** What a non-empty joined array holds for a `$match` that reads only its size. */
const NON_EMPTY: Row = Object.freeze({});

/**
 * True when every condition of `filter` on a temp field is `{ $size: 0 }` on the field itself (under `$and`,
 * `$or`, `$nor`), and nothing else reads a temp (no other top-level operator such as `$expr`, no dotted path
 * into one).
 */
function asksEmptinessOnly(filter: Filter, temps: ReadonlySet<string>): boolean {
  return Object.entries(filter).every(([key, value]) => {
    if (key === '$and' || key === '$or' || key === '$nor') return Array.isArray(value) && value.every((f) => isObject(f) && asksEmptinessOnly(f, temps));
    if (key.startsWith('$')) return false;
    if (!temps.has(key.split('.')[0]!)) return true;
    return temps.has(key) && isObject(value) && Object.keys(value).length === 1 && value.$size === 0;
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
 * non-empty array of strings, or its scalar value (see {@link keySpace}; an element and an equal scalar join
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

/** Probings of stable input arrays (a cached scope), by local field and temp: a write to the target keeps them. */
const probingsOf = new WeakMap<readonly Row[], Map<string, Probing | null>>();

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
    const joined = compileStages(cx, [stage])(p.probes, false, {}).rows;
    const flags = joined.map((row) => (row[as] as unknown[]).length > 0);
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
      } else if (keySpace(value) === 0) {
        keys[i] = probe(value ?? null, value === undefined ? {} : { [localField]: value });
      } else {
        keys[i] = probes.push({ [localField]: value }) - 1;
      }
    }
    starts[rows.length] = elements.length;
    probing = { probes, keys, starts, elements: Int32Array.from(elements) };
  }
  if (stable) {
    const byKey = probingsOf.get(rows) ?? new Map<string, Probing | null>();
    if (byKey.size >= 16) byKey.clear();
    probingsOf.set(rows, byKey.set(cacheKey, probing));
  }
  return probing;
}

const ELEMENTS = -1;
const isString = (value: unknown): value is string => typeof value === 'string';

/**
 * Runs the `$lookup`s. One without `let` whose `localField` reads no earlier temp joins every row with the same
 * local value to the same rows (its pipeline cannot see the row): it runs once per distinct value of a top-level
 * `localField` (scalars, null/missing, arrays of strings), on the first row holding it. Otherwise every row is
 * joined, all the lookups in order. Null when a row holds a temp field.
 */
function joinAll(cx: StageContext, rows: readonly Row[], plan: RelationFilterPlan): Joined[] | null {
  const independent = plan.lookups.every((stage) => {
    const { localField, let: letSpec } = stage.$lookup as Record<string, unknown>;
    return letSpec === undefined && !plan.temps.includes(String(localField).split('.')[0]!);
  });
  if (!independent) {
    for (const row of rows) for (const temp of plan.temps) if (Object.hasOwn(row, temp)) return null;
    const all = compileStages(cx, plan.lookups)(rows, false, {}).rows;
    const at = rows.map((_row, i) => i);
    return plan.temps.map((temp) => ({ at, arrays: all.map((row) => row[temp]) }));
  }
  const out: Joined[] = [];
  for (const stage of plan.lookups) {
    const joined = joinDistinct(cx, rows, stage);
    if (!joined) return null;
    out.push(joined);
  }
  return out;
}

/**
 * One `$lookup` without `let` on the distinct local values of `rows`, each joined on a row holding only the
 * first part of the `localField` path (all the join reads); null when a row holds the `as` field.
 */
function joinDistinct(cx: StageContext, rows: readonly Row[], stage: Record<string, unknown>): Joined | null {
  const { localField, as } = stage.$lookup as { localField: string; as: string };
  const groups = distinctValues(rows, localField, as);
  if (!groups) return null;
  const joined = compileStages(cx, [stage])(groups.distinct, false, {}).rows;
  return { at: groups.at, arrays: joined.map((row) => row[as]) };
}

/** One row per distinct local value (reduced to the path's first field), and which one each input row is. */
type Groups = { readonly at: readonly number[]; readonly distinct: readonly Row[] };
/** Groups of stable input arrays (a cached scope), by local field and temp: a write to the target keeps them. */
const groupsOf = new WeakMap<readonly Row[], Map<string, Groups | null>>();

function distinctValues(rows: readonly Row[], localField: string, as: string): Groups | null {
  const stable = stableId(rows) !== undefined;
  const key = `${localField}\u0000${as}`;
  const cached = stable ? groupsOf.get(rows)?.get(key) : undefined;
  if (cached !== undefined) return cached;
  const head = localField.split('.')[0]!;
  // Two key spaces: scalar values, and the JSON text of arrays of strings (never mistaken for a string value).
  const firstOf = [new Map<unknown, number>(), new Map<unknown, number>()] as const;
  const at: number[] = [];
  const distinct: Row[] = [];
  const plain = isPlainField(localField);
  let groups: Groups | null = { at, distinct };
  for (const row of rows) {
    if (Object.hasOwn(row, as)) {
      groups = null;
      break;
    }
    // A plain field is never inherited (isPlainField): undefined is a missing field.
    const value = plain ? row[localField] : null;
    const space = plain ? keySpace(value) : -1;
    const id = space === 1 ? JSON.stringify(value) : (value ?? null);
    const seen = space === -1 ? undefined : firstOf[space].get(id);
    if (seen !== undefined) {
      at.push(seen);
      continue;
    }
    if (space !== -1) firstOf[space].set(id, distinct.length);
    at.push(distinct.length);
    distinct.push(Object.hasOwn(row, head) ? { [head]: row[head] } : {});
  }
  if (stable) {
    const byKey = groupsOf.get(rows) ?? new Map<string, Groups | null>();
    if (byKey.size >= 16) byKey.clear();
    groupsOf.set(rows, byKey.set(key, groups));
  }
  return groups;
}

/**
 * Where a top-level `localField` value is keyed so that two rows share a key exactly when their values join the
 * same rows (SameValueZero in a `Map`): 0, the value itself, for a string, a boolean, a finite number (0 and -0
 * are one number to MongoDB), null or missing (both join as null); 1, its JSON text, for an array of strings
 * (a space of its own: never mistaken for a string value); -1 for any other value (the row is joined alone).
 */
function keySpace(value: unknown): 0 | 1 | -1 {
  if (value === null || value === undefined || typeof value === 'string' || typeof value === 'boolean') return 0;
  if (typeof value === 'number') return Number.isFinite(value) ? 0 : -1;
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? 1 : -1;
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

/** Results per stable input array, by {@link cacheKey}. */
const results = new WeakMap<readonly Row[], Map<string, Row[]>>();
/** Stages and variables whose result may change without a write: such lookups are never cached. */
const VOLATILE = ['$$NOW', '$$CLUSTER_TIME', '"$rand"', '"$sample"', '"$unionWith"', '"$graphLookup"', '"$documents"', '"$function"', '"$where"'];

/** The stages' text and the version of every collection they read; null for input that is not stable. */
function cacheKey(collection: (name: string) => MemoryCollection, rows: readonly Row[], plan: RelationFilterPlan): string | null {
  const id = stableId(rows);
  if (id === undefined) return null;
  const text = JSON.stringify([plan.lookups, plan.match]);
  if (VOLATILE.some((v) => text.includes(v))) return null;
  const names = new Set<string>();
  collectFroms(plan.lookups, names);
  const versions = [...names].sort().map((name) => `${name}@${collection(name).version}`);
  return `${versions.join(',')}|${text}`;
}

/** The `from` of every `$lookup` anywhere in `value` (sub-pipelines, `$facet`s). */
function collectFroms(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectFroms(item, out);
  } else if (isObject(value)) {
    const lookup = value.$lookup;
    if (isObject(lookup) && typeof lookup.from === 'string') out.add(lookup.from);
    for (const inner of Object.values(value)) collectFroms(inner, out);
  }
}
