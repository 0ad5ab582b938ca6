import { ValidationError } from '../errors';
import { asList, isPlainObject } from './as-list';
import { assertDepth, deeper } from './depth-limit';
import type { ParseScope } from './parse-scope';
import { parsePopulateNode } from './parse-populate-node';
import { populateStar, type PopulateTarget } from './populate-star';
import type { PopulateMap, PopulateNode } from './types';

const INVALID_POPULATE = 'Invalid populate parameter. Expected a string, an array of strings, a populate object';

/** One requested key (a dotted path for nested components/relations) and what to populate under it. */
interface Entry {
  readonly path: readonly string[];
  readonly value: unknown;
}

interface Request {
  star: boolean;
  readonly entries: Entry[];
}

function addString(request: Request, text: string): void {
  for (const part of text.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    if (part === '*') request.star = true;
    else request.entries.push({ path: part.split('.'), value: true });
  }
}

function addObject(request: Request, object: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(object)) {
    if (/^\d+$/.test(key) && typeof value === 'string') addString(request, value);
    else request.entries.push({ path: key.split('.'), value });
  }
}

/** Reads every form Strapi accepts: `*`, `a,b`, `['a', 'b.c']`, `{ a: true, b: { populate: ... } }`, mixes of them. */
function collect(raw: unknown): Request {
  const request: Request = { star: false, entries: [] };
  if (raw === null || raw === undefined) return request;
  if (typeof raw === 'string') {
    addString(request, raw);
    return request;
  }
  const list = Array.isArray(raw) ? raw : undefined;
  if (list) {
    for (const item of list) {
      if (typeof item === 'string') addString(request, item);
      else if (isPlainObject(item) && !asList(item)) addObject(request, item);
      else throw new ValidationError(INVALID_POPULATE);
    }
    return request;
  }
  if (isPlainObject(raw)) {
    addObject(request, raw);
    return request;
  }
  throw new ValidationError(INVALID_POPULATE);
}

function mergeFields(a: readonly string[] | null, b: readonly string[] | null): readonly string[] | null {
  if (a === null) return b;
  if (b === null) return a;
  return [...a, ...b.filter((f) => !a.includes(f))];
}

function mergeMaps(a: PopulateMap, b: PopulateMap): PopulateMap {
  const out: Record<string, PopulateNode> = { ...a };
  for (const [key, node] of Object.entries(b)) out[key] = out[key] ? mergeNodes(out[key], node) : node;
  return out;
}

/** Two requests for the same key (`seo` and `seo.socials`): the union, the later explicit options winning. */
function mergeNodes(a: PopulateNode, b: PopulateNode): PopulateNode {
  const merged: { -readonly [K in keyof PopulateNode]: PopulateNode[K] } = {
    attribute: a.attribute,
    fields: mergeFields(a.fields, b.fields),
    sort: b.sort.length > 0 ? b.sort : a.sort,
    populate: mergeMaps(a.populate, b.populate),
  };
  const filters = b.filters ?? a.filters;
  if (filters) merged.filters = filters;
  if (a.on || b.on) merged.on = mergeMaps(a.on ?? {}, b.on ?? {});
  const count = b.count ?? a.count;
  if (count !== undefined) merged.count = count;
  const start = b.start ?? a.start;
  if (start !== undefined) merged.start = start;
  const limit = b.limit ?? a.limit;
  if (limit !== undefined) merged.limit = limit;
  const withCount = b.withCount ?? a.withCount;
  if (withCount !== undefined) merged.withCount = withCount;
  return merged;
}

/**
 * Validates a `populate` value against `target` into a PopulateMap, at most `rest.maxDepth` levels deep
 * (default 10; deeper is a 400). Unknown keys and scalar attributes are `Invalid key <key>` (param
 * "populate"); relations to types the caller cannot `find` are silently left out, at every depth and with `*`.
 *
 * @example
 * parsePopulate(scope, article, 'seo.socials,cover'); // { seo: { populate: { socials: ... } }, cover: ... }
 */
export function parsePopulate(scope: ParseScope, target: PopulateTarget, raw: unknown): PopulateMap {
  const request = collect(raw);
  if (request.star || request.entries.length > 0) assertDepth(scope, 'populate', (scope.depth ?? 0) + 1);
  const inner = deeper(scope);
  let out: PopulateMap = request.star ? populateStar(inner, target) : {};
  for (const { path, value } of request.entries) {
    const [head, ...rest] = path;
    const nestedValue = rest.length > 0 ? { populate: { [rest.join('.')]: value } } : value;
    const node = parsePopulateNode(inner, target, head ?? '', nestedValue, parsePopulate);
    if (node) out = mergeMaps(out, { [head!]: node });
  }
  return out;
}
