import type { PopulateMap } from '../query/types';
import type { Registry } from '../schema';
import { createIdentityCache } from '../util/frozen';
import type { Selection } from './format-document';

/** How many compiled writers a registry keeps (selections come from requests: the cache must stay bounded). */
const MAX_WRITERS = 256;

const writers = new WeakMap<Registry, Map<string, unknown>>();

/**
 * The writer compiled for `uid` and a selection with the same output shape (fields, populated names, `on`,
 * `count`, `withCount`; filters, sorts and pages do not change the text), compiling it with `compile` the first time. Writers live
 * as long as the registry; at most {@link MAX_WRITERS} per registry (the oldest is dropped).
 *
 * @example
 * cachedWriter(registry, uid, selection, () => compile(registry, uid, selection))
 */
export function cachedWriter<T>(registry: Registry, uid: string, selection: Selection, compile: () => T): T {
  // A frozen selection (a query the HTTP routes keep, see lib/query/query-cache) finds its writer without the key
  // (lib/util/frozen); any other selection computes its key every time.
  const entry = bySelection.get(selection, () => ({ registry, uid, writer: keyedWriter(registry, uid, selection, compile) }), (kept) => kept.registry === registry && kept.uid === uid);
  return entry.writer as T;
}

function keyedWriter<T>(registry: Registry, uid: string, selection: Selection, compile: () => T): T {
  let byKey = writers.get(registry);
  if (!byKey) writers.set(registry, (byKey = new Map()));
  const key = `${uid}|${selectionKey(selection)}`;
  let writer = byKey.get(key) as T | undefined;
  if (writer === undefined) {
    writer = compile();
    if (byKey.size >= MAX_WRITERS) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, writer);
  }
  return writer;
}

/** The writer found for each frozen selection object (it cannot change, so neither can its key). */
const bySelection = createIdentityCache<Selection, { registry: Registry; uid: string; writer: unknown }>();

/** What decides a writer's text: JSON of fields and, per populated name in order, its own key. */
function selectionKey(selection: Selection & { on?: Readonly<Record<string, Selection>>; count?: boolean; withCount?: boolean }): string {
  let key = `${JSON.stringify(selection.fields)}${selection.count ? 'c' : ''}${selection.withCount ? 't' : ''}{${populateKey(selection.populate)}}`;
  if (selection.on) key += `on{${populateKey(selection.on)}}`;
  return key;
}

function populateKey(map: PopulateMap | Readonly<Record<string, Selection>>): string {
  let key = '';
  for (const name of Object.keys(map)) key += `${JSON.stringify(name)}:${selectionKey(map[name]!)},`;
  return key;
}
