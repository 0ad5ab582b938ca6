import type { Filter, Pipeline, Row } from '../engine/types';

/** The identity fields a read can be keyed by: `documentId` (content rows) and `id` (media, components' rows). */
export type KeyField = 'documentId' | 'id';

/**
 * What one read depends on, per collection (docs/caching.md, "Exact invalidation"):
 * - `sets`: collections whose CONTENTS decide which rows the read found (a list, a filter, a count, a relation
 *   filter, the mappedBy side of a relation: "the articles whose author is X"). Any write to them may change it.
 * - `keyed`: collections read only by known keys (a findOne by documentId, the owning side of a populated
 *   relation, media by id): only a write to a row with one of those keys, or a new row, may change it. The keys
 *   are `documentIds` / `ids`: the pinned values of a read by key, and every `documentId` / `id` of the answer.
 */
export interface ReadDependencies {
  readonly collections: Set<string>;
  readonly sets: Set<string>;
  readonly keyed: Map<string, Set<KeyField>>;
  readonly documentIds: Set<string>;
  readonly ids: Set<string>;
}

export function emptyDependencies(): ReadDependencies {
  return { collections: new Set(), sets: new Set(), keyed: new Map(), documentIds: new Set(), ids: new Set() };
}

/** Stages after which rows may be dropped, reordered or merged: a join before them is not shown as a whole. */
const ROW_STAGES = new Set(['$match', '$limit', '$skip', '$sort', '$group', '$unwind', '$sample', '$count', '$bucket', '$bucketAuto', '$sortByCount', '$replaceRoot', '$replaceWith', '$redact']);
/** Stages a keyed join's sub-pipeline may have: they keep, reshape or order by key the rows the key selected. */
const KEYED_STAGES = new Set(['$match', '$sort', '$limit', '$unset', '$addFields', '$set', '$project', '$setWindowFields', '$lookup', '$graphLookup', '$unionWith', '$facet']);
/** The fields of a relation's scope (pipeline/target-scope.ts): they choose among the rows of one key. */
const SCOPE_FIELDS = new Set(['_status', 'locale']);

function addKeyed(deps: ReadDependencies, collection: string, field: KeyField): void {
  deps.collections.add(collection);
  let fields = deps.keyed.get(collection);
  if (!fields) deps.keyed.set(collection, (fields = new Set()));
  fields.add(field);
}

function addSet(deps: ReadDependencies, collection: string): void {
  deps.collections.add(collection);
  deps.sets.add(collection);
}

/** The values a filter pins its `documentId` or `id` to (equality or `$in`), if it does. */
export function pinnedKeys(filter: Filter | undefined): { field: KeyField; values: string[] } | undefined {
  if (!filter) return undefined;
  for (const field of ['documentId', 'id'] as const) {
    const condition = filter[field];
    const scalar = (v: unknown): v is string | number => typeof v === 'string' || typeof v === 'number';
    if (scalar(condition)) return { field, values: [String(condition)] };
    if (condition && typeof condition === 'object' && !Array.isArray(condition)) {
      const ops = condition as Record<string, unknown>;
      const keys = Object.keys(ops);
      if (keys.length === 1 && scalar(ops.$eq)) return { field, values: [String(ops.$eq)] };
      if (keys.length === 1 && Array.isArray(ops.$in) && ops.$in.every(scalar)) return { field, values: (ops.$in as (string | number)[]).map(String) };
    }
  }
  return undefined;
}

/** The field paths (`$x`, not `$$x`) an expression reads. */
function fieldPaths(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.startsWith('$') && !value.startsWith('$$')) into.push(value);
  } else if (Array.isArray(value)) for (const v of value) fieldPaths(v, into);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) fieldPaths(v, into);
  return into;
}

/** A `$match` that only chooses among the rows of one key by status and locale (the relation's scope). */
function isScopeMatch(match: Record<string, unknown>): boolean {
  return Object.entries(match).every(([key, value]) => SCOPE_FIELDS.has(key) || (key === '$expr' && fieldPaths(value).every((p) => p === '$locale')));
}

/** The `$sort` of a keyed join: by key or by the position of the key in the source row's array (`__o…`). */
function isKeySort(sort: Record<string, unknown>): boolean {
  return Object.keys(sort).every((key) => key === 'id' || key === 'documentId' || key.startsWith('__o'));
}

/** Whether the rows of a keyed join's sub-pipeline are exactly the rows of its keys, in scope, with their key. */
function keepsKeyedRows(pipeline: readonly Record<string, unknown>[], field: KeyField): boolean {
  return pipeline.every((stage) => {
    const [name, body] = Object.entries(stage)[0] ?? [];
    if (name === undefined || !KEYED_STAGES.has(name)) return false;
    if (name === '$match') return isScopeMatch(body as Record<string, unknown>);
    if (name === '$sort') return isKeySort(body as Record<string, unknown>);
    if (name === '$project') {
      const spec = body as Record<string, unknown>;
      const inclusion = Object.entries(spec).some(([k, v]) => k !== '_id' && (v === 1 || v === true));
      return inclusion ? spec[field] === 1 || spec[field] === true : spec[field] === undefined;
    }
    if (name === '$unset') return ![body].flat().includes(field);
    return true;
  });
}

/** Walks the stages of one pipeline level; `asSet`: the rows of this level are not all shown (only sets below). */
function walkStages(stages: readonly Record<string, unknown>[], asSet: boolean, deps: ReadDependencies): boolean {
  let anyKeyed = false;
  stages.forEach((stage, i) => {
    const lookup = stage.$lookup as { from?: unknown; localField?: unknown; foreignField?: unknown; pipeline?: unknown } | undefined;
    if (lookup && typeof lookup.from === 'string') {
      const sub = Array.isArray(lookup.pipeline) ? (lookup.pipeline as Record<string, unknown>[]) : [];
      const field = lookup.foreignField;
      const shown = !asSet && !stages.slice(i + 1).some((later) => Object.keys(later).some((k) => ROW_STAGES.has(k)));
      const keyed = shown && typeof lookup.localField === 'string' && (field === 'documentId' || field === 'id') && keepsKeyedRows(sub, field);
      if (keyed) addKeyed(deps, lookup.from, field);
      else addSet(deps, lookup.from);
      anyKeyed = walkStages(sub, !keyed, deps) || keyed || anyKeyed;
    }
    const graph = stage.$graphLookup as { from?: unknown } | undefined;
    if (graph && typeof graph.from === 'string') addSet(deps, graph.from);
    const union = stage.$unionWith as string | { coll?: unknown; pipeline?: unknown } | undefined;
    if (typeof union === 'string') addSet(deps, union);
    else if (union) {
      if (typeof union.coll === 'string') addSet(deps, union.coll);
      if (Array.isArray(union.pipeline)) walkStages(union.pipeline as Record<string, unknown>[], true, deps);
    }
    const facet = stage.$facet as Record<string, unknown> | undefined;
    if (facet) for (const sub of Object.values(facet)) if (Array.isArray(sub)) walkStages(sub as Record<string, unknown>[], true, deps);
  });
  return anyKeyed;
}

/**
 * Adds what an aggregate of `collection` depends on. The collection itself is keyed when the first `$match` pins
 * `documentId` or `id` (a findOne), else a set. Each `$lookup` is keyed when it joins by the target's key
 * (`foreignField` `documentId` / `id`: the owning side of a relation, media), its sub-pipeline keeps exactly the
 * rows of those keys (scope matches, key sorts, reshaping) and nothing after it at its level drops rows (so every
 * joined row is in the answer): a populate. Anything else (relation filters, relation sorts, the mappedBy side,
 * populate filters, `$graphLookup`, `$unionWith`, `$facet`, and every join inside them) is a set. Returns whether
 * the answer's rows must be walked for their keys ({@link addAnswerKeys}).
 *
 * @example
 * const deps = emptyDependencies();
 * addPipelineDependencies(deps, 'articles', [{ $match: { documentId: 'a1' } }, { $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [], as: 'author' } }]);
 * // deps.keyed: articles -> documentId, authors -> documentId; deps.documentIds: a1 (then the answer's keys)
 */
export function addPipelineDependencies(deps: ReadDependencies, collection: string, pipeline: Pipeline): boolean {
  const stages = pipeline as readonly Record<string, unknown>[];
  const first = stages[0]?.$match as Filter | undefined;
  addFindDependencies(deps, collection, first);
  return walkStages(stages, false, deps);
}

/** Adds what a `find` or `count` of `collection` with `filter` depends on: keyed when it pins keys, else a set. */
export function addFindDependencies(deps: ReadDependencies, collection: string, filter: Filter | undefined): void {
  const pinned = pinnedKeys(filter);
  if (!pinned) return addSet(deps, collection);
  addKeyed(deps, collection, pinned.field);
  for (const value of pinned.values) (pinned.field === 'id' ? deps.ids : deps.documentIds).add(value);
}

/**
 * Adds every `documentId` and `id` found in an answer's rows, at any depth (joined rows included). Components'
 * ids are added too: more keys only make invalidation drop more, never less.
 */
export function addAnswerKeys(deps: ReadDependencies, rows: readonly Row[]): void {
  const stack: unknown[] = [...rows];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const v of value as unknown[]) if (v !== null && typeof v === 'object') stack.push(v);
    } else if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
      const row = value as Record<string, unknown>;
      if (typeof row.documentId === 'string') deps.documentIds.add(row.documentId);
      if (typeof row.id === 'number' || typeof row.id === 'string') deps.ids.add(String(row.id));
      for (const v of Object.values(row)) if (v !== null && typeof v === 'object') stack.push(v);
    }
  }
}
