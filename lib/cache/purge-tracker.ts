import { AsyncLocalStorage } from 'node:async_hooks';
import { componentRelationPaths } from '../documents/relations/remove-references';
import type { Engine, Filter, Row } from '../engine';
import type { Logger } from '../errors/logger';
import type { Attributes, ContentType, Registry } from '../schema';
import { documentTag, typeTag } from './cache-tags';

/** What `router.on('cache.purge', fn)` listeners get: the tags of the answers a committed write may have changed. */
export interface CachePurgeEvent {
  readonly event: 'cache.purge';
  /** Type tags first, then document tags; never empty. */
  readonly tags: readonly string[];
}

export type CachePurgeListener = (event: CachePurgeEvent) => unknown;

const MAX_DEPTH = 12;

/** The documentIds a row links to through owning relations, its components' and dynamic zones' included. */
function collectLinks(registry: Registry, attributes: Attributes, row: Row, into: Set<string>, depth = 0): Set<string> {
  if (depth > MAX_DEPTH) return into;
  for (const a of Object.values(attributes)) {
    const value = row[a.name];
    if (value === null || value === undefined) continue;
    if (a.kind === 'relation' && a.owner) {
      for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string') into.add(v);
    } else if (a.kind === 'component' || a.kind === 'dynamiczone') {
      for (const item of (Array.isArray(value) ? value : [value]) as Row[]) {
        if (!item || typeof item !== 'object') continue;
        const uid = a.kind === 'component' ? a.component : String(item.__component);
        const component = registry.components.get(uid);
        if (component) collectLinks(registry, component.attributes, item, into, depth + 1);
      }
    }
  }
  return into;
}

/**
 * Follows every write through the engine and says, once it is committed, which cache tags (cache-tags.ts) it may
 * have changed: for each written row of a content type (the media library's files included), its type's tag,
 * its document's tag, and the tags of the documents whose relation to it was made or undone (either side of a
 * relation shows the other). A new row of a document that existed (a publish, a new locale) also purges the
 * documents linking to it: their answers showed nothing of it until then. Draft rows purge nothing (see
 * {@link isDraft}): saving a draft leaves the CDN's published answers alone. Writes in a transaction are announced
 * when it ends; the others when they end. Reads made for this run in the write's transaction.
 */
export class PurgeTracker {
  private readonly scope = new AsyncLocalStorage<Set<string>>();
  private readonly listeners = new Set<CachePurgeListener>();
  private readonly types = new Map<string, ContentType>();

  constructor(private readonly registry: Registry, private readonly prefix: string, private readonly logger: Logger) {
    for (const ct of registry.contentTypes.values()) this.types.set(ct.collectionName, ct);
  }

  on(listener: CachePurgeListener): () => void {
    this.listeners.add(listener);
    return () => this.off(listener);
  }

  off(listener: CachePurgeListener): void {
    this.listeners.delete(listener);
  }

  /** The engine whose committed writes are announced (every part of the router must write through it). */
  track(engine: Engine): Engine {
    const overrides: Partial<Engine> = {
      insertMany: (collection, rows) => this.write(collection, () => this.inserted(engine, collection, rows), () => engine.insertMany(collection, rows)),
      updateMany: (collection, filter, update) => this.changed(engine, collection, filter, () => engine.updateMany(collection, filter, update)),
      replaceOne: (collection, filter, row) => this.changed(engine, collection, filter, () => engine.replaceOne(collection, filter, row)),
      deleteMany: (collection, filter) => this.changed(engine, collection, filter, () => engine.deleteMany(collection, filter), true),
      transaction: (fn) => this.transaction(engine, fn),
    };
    return new Proxy(engine, {
      get(target, prop) {
        if (typeof prop === 'string' && prop in overrides) return overrides[prop as keyof Engine];
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  private async transaction<T>(engine: Engine, fn: () => Promise<T>): Promise<T> {
    if (this.scope.getStore()) return engine.transaction(fn); // nested: joins the outer one
    const tags = new Set<string>();
    try {
      return await engine.transaction(() => this.scope.run(tags, fn));
    } finally {
      // A transaction that failed changed nothing; its tags are purged anyway (harmless, and a retried one did write).
      this.emit(tags);
    }
  }

  private async write<T>(collection: string, before: () => Promise<Set<string>>, run: () => Promise<T>): Promise<T> {
    if (!this.types.has(collection) || this.listeners.size === 0) return run();
    const tags = await before();
    const result = await run();
    const scope = this.scope.getStore();
    if (scope) for (const tag of tags) scope.add(tag);
    else this.emit(tags);
    return result;
  }

  /** An update, replace or delete: the rows it matches, before and after. */
  private changed<T extends number>(engine: Engine, collection: string, filter: Filter, run: () => Promise<T>, deleting = false): Promise<T> {
    const ct = this.types.get(collection);
    if (!ct || this.listeners.size === 0) return run();
    return (async () => {
      const before = await engine.find(collection, filter);
      const result = await run();
      const after = deleting || before.length === 0 ? [] : await engine.find(collection, { id: { $in: before.map((r) => r.id) } });
      const tags = new Set<string>();
      const afterById = new Map(after.map((r) => [r.id, r]));
      for (const old of before) {
        const now = afterById.get(old.id);
        if (isDraft(ct, old) && (!now || isDraft(ct, now))) continue; // a draft changed or gone: no shared answer showed it
        tags.add(typeTag(ct.uid, this.prefix));
        tags.add(documentTag(String(old.documentId), this.prefix));
        if (now && now.documentId !== old.documentId) tags.add(documentTag(String(now.documentId), this.prefix));
        // Links made or undone: the other side's answers show (or showed) this document.
        const was = collectLinks(this.registry, ct.attributes, old, new Set());
        const is = now ? collectLinks(this.registry, ct.attributes, now, new Set()) : new Set<string>();
        for (const id of was) if (!is.has(id)) tags.add(documentTag(id, this.prefix));
        for (const id of is) if (!was.has(id)) tags.add(documentTag(id, this.prefix));
      }
      const scope = this.scope.getStore();
      if (scope) for (const tag of tags) scope.add(tag);
      else this.emit(tags);
      return result;
    })();
  }

  /** New rows: their documents, what they link to, and, for documents that had rows already, who links to them. */
  private async inserted(engine: Engine, collection: string, rows: readonly Row[]): Promise<Set<string>> {
    const ct = this.types.get(collection)!;
    const tags = new Set<string>();
    rows = rows.filter((row) => !isDraft(ct, row));
    if (rows.length === 0) return tags;
    tags.add(typeTag(ct.uid, this.prefix));
    const ids = [...new Set(rows.map((r) => r.documentId).filter((d): d is string => typeof d === 'string'))];
    for (const row of rows) {
      if (row.documentId !== undefined) tags.add(documentTag(String(row.documentId), this.prefix));
      for (const id of collectLinks(this.registry, ct.attributes, row, new Set())) tags.add(documentTag(id, this.prefix));
    }
    if (ids.length === 0) return tags;
    const existing = (await engine.find(collection, { documentId: { $in: ids } }, { projection: { documentId: 1 } })).map((r) => r.documentId as string);
    if (existing.length > 0) for (const id of await this.linking(engine, ct.uid, existing)) tags.add(documentTag(id, this.prefix));
    return tags;
  }

  /** The documents whose owning relations (top level or in components) point to one of `documentIds` of `uid`. */
  private async linking(engine: Engine, uid: string, documentIds: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    const add = (rows: readonly Row[]) => rows.forEach((r) => found.add(String(r.documentId)));
    for (const { sourceUid, attribute } of this.registry.incomingRelations(uid)) {
      const source = this.registry.contentType(sourceUid).collectionName;
      add(await engine.find(source, { [attribute.name]: { $in: documentIds } }, { projection: { documentId: 1 } }));
    }
    for (const ct of this.registry.contentTypes.values()) {
      const paths = componentRelationPaths(this.registry, ct.attributes, uid);
      if (paths.length > 0) add(await engine.find(ct.collectionName, { $or: paths.map((p) => ({ [p]: { $in: documentIds } })) }, { projection: { documentId: 1 } }));
    }
    return found;
  }

  private emit(tags: Set<string>): void {
    if (tags.size === 0 || this.listeners.size === 0) return;
    const sorted = [...tags].sort((a, b) => kind(a, this.prefix) - kind(b, this.prefix) || (a < b ? -1 : a > b ? 1 : 0));
    const event: CachePurgeEvent = Object.freeze({ event: 'cache.purge', tags: Object.freeze(sorted) });
    for (const listener of [...this.listeners]) {
      try {
        Promise.resolve(listener(event)).catch((error: unknown) => this.report(error));
      } catch (error) {
        this.report(error);
      }
    }
  }

  private report(error: unknown): void {
    this.logger.error(`content-router: a cache.purge listener failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
}

/**
 * A draft row of a type with draft & publish: only reads of drafts (`status=draft`) show it, and those answers are
 * `no-store` (or `private`): no shared cache keeps them, so writing a draft purges nothing. A published answer
 * never shows a draft, even through relations (docs/storage-model.md, "Resolving relations").
 */
function isDraft(ct: ContentType, row: Row): boolean {
  return ct.draftAndPublish && row._status === 'draft';
}

/** Type tags sort before document tags. */
function kind(tag: string, prefix: string): number {
  return tag.startsWith(`${prefix}t:`) ? 0 : 1;
}
