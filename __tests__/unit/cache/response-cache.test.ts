import { memoryEngine } from '../../../lib';
import type { Engine } from '../../../lib/engine';
import { MAX_RECORDED_KEYS, ResponseCache } from '../../../lib/cache/response-cache';
import { normalizeQuery } from '../../../lib/http/response-cache-middleware';

const answer = (text: string) => ({ body: Buffer.from(text), etag: `"${text}"`, headers: { 'content-type': 'application/json; charset=utf-8' } });

describe('normalizeQuery', () => {
  test.each<[string, string]>([
    ['sort=title&locale=fr', 'locale=fr&sort=title'],
    ['sort=b&sort=a', 'sort=b&sort=a'],
    ['populate[b]=true&locale=fr&populate[a]=true', 'locale=fr&populate[b]=true&populate[a]=true'],
    ['&&a=1&', 'a=1'],
    ['', ''],
  ])('%s -> %s', (raw, normalized) => {
    expect(normalizeQuery(raw)).toBe(normalized);
  });
});

describe('ResponseCache', () => {
  test('keeps the most recently used entries within its byte budget', () => {
    const body = 'x'.repeat(1000);
    const probe = new ResponseCache({ maxBytes: 1e6 });
    probe.record((r) => (r.collections.add('articles'), probe.store('a', r, answer(body))));
    const one = probe.size;
    const cache = new ResponseCache({ maxBytes: 3 * one });
    for (const key of ['a', 'b', 'c']) cache.record((r) => (r.collections.add('articles'), cache.store(key, r, answer(body))));
    expect(cache.count).toBe(3);
    cache.get('a');
    cache.record((r) => (r.collections.add('articles'), cache.store('d', r, answer(body))));
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')].map(Boolean)).toEqual([true, false, true, true]);
    expect(cache.size).toBeLessThanOrEqual(3 * one);
    expect(cache.record((r) => (r.collections.add('articles'), cache.store('huge', r, answer('y'.repeat(5000)))))).toBe(false);
  });

  test('an entry counts the keys, collections and headers it holds, not only its body', () => {
    const cache = new ResponseCache({ maxBytes: 1e6 });
    cache.record((r) => (r.collections.add('articles'), cache.store('bare', r, answer('x'))));
    const bare = cache.size;
    cache.record((r) => {
      r.collections.add('articles').add('authors').add('files');
      r.keyed.set('authors', new Set(['documentId']));
      for (let i = 0; i < 100; i++) r.documentIds.add(`author-${i}`);
      return cache.store('keys', r, answer('x'));
    });
    // 100 keys of 8 or 9 characters and two more collections: each key is at least its UTF-16 bytes and a Set slot.
    expect(cache.size - bare - bare).toBeGreaterThanOrEqual(100 * (16 + 48) + 2 * 96);
  });

  test('evicted and invalidated entries leave nothing in the reverse index', () => {
    const cache = new ResponseCache({ maxBytes: 20_000 });
    const store = (key: string, collections: string[], documentIds: string[] = []) =>
      cache.record((r) => {
        for (const c of collections) r.collections.add(c);
        for (const d of documentIds) (r.keyed.get('authors') ?? r.keyed.set('authors', new Set(['documentId'])).get('authors')!).add('documentId'), r.documentIds.add(d);
        return cache.store(key, r, answer('x'.repeat(500)));
      });
    for (let i = 0; i < 200; i++) store(`k${i}`, i % 2 ? ['articles', 'authors'] : [`c${i}`], i % 2 ? [`a${i}`] : []);
    expect(cache.count).toBeLessThan(200);
    // Only the entries held are indexed, once per collection they read; collections nobody reads any more are gone.
    const held = Array.from({ length: 200 }, (_, i) => `k${i}`).filter((k) => cache.peek(k));
    expect(held.length).toBe(cache.count);
    expect(cache.indexed).toBe(held.reduce((n, k) => n + (Number(k.slice(1)) % 2 ? 2 : 1), 0));
    expect(cache.indexedCollections).toBe(new Set(held.flatMap((k) => (Number(k.slice(1)) % 2 ? ['articles', 'authors'] : [`c${k.slice(1)}`]))).size);
    cache.invalidate('articles');
    cache.clear();
    expect([cache.count, cache.size, cache.indexed, cache.indexedCollections, cache.hasKeyedReaders('authors')]).toEqual([0, 0, 0, 0, false]);
  });

  test(`an entry past ${MAX_RECORDED_KEYS} keys records its keyed collections as sets: a write of another key drops it`, () => {
    const cache = new ResponseCache({ maxBytes: 1e7 });
    const store = (key: string, n: number) =>
      cache.record((r) => {
        r.collections.add('articles').add('authors');
        r.sets.add('articles');
        r.keyed.set('authors', new Set(['documentId']));
        for (let i = 0; i < n; i++) r.documentIds.add(`author-${i}`);
        return cache.store(key, r, answer(key));
      });
    store('few', MAX_RECORDED_KEYS);
    store('many', MAX_RECORDED_KEYS + 1);
    expect(cache.recordedKeys).toBe(MAX_RECORDED_KEYS);
    // A write of an author neither entry shows: the capped entry may have shown it (its keys are gone), so it goes.
    cache.invalidate({ collection: 'authors', everyReader: false, documentIds: new Set(['author-999999']) });
    expect([Boolean(cache.peek('few')), Boolean(cache.peek('many'))]).toEqual([true, false]);
    cache.invalidate({ collection: 'authors', everyReader: false, documentIds: new Set(['author-3']) });
    expect(cache.peek('few')).toBeUndefined();
  });

  test('a write drops exactly the entries that read its collection', () => {
    const cache = new ResponseCache({ maxBytes: 1e6 });
    cache.record((r) => (r.collections.add('articles').add('authors'), cache.store('populated', r, answer('1'))));
    cache.record((r) => (r.collections.add('articles'), cache.store('plain', r, answer('2'))));
    cache.invalidate('authors');
    expect(cache.get('populated')).toBeUndefined();
    expect(cache.get('plain')).toBeDefined();
  });

  test('an answer whose collections were written while it was read is not stored', async () => {
    const cache = new ResponseCache({ maxBytes: 1e6 });
    const engine = cache.track(memoryEngine({ ephemeral: true }));
    await engine.init([{ name: 'articles', indexes: [] }, { name: 'authors', indexes: [] }]);
    const stored = await cache.record(async (r) => {
      await engine.find('articles', {});
      await engine.insertMany('articles', [{ id: 1 }]); // another request's write, while this read runs
      return cache.store('k', r, answer('old'));
    });
    expect(stored).toBe(false);
    await engine.close();
  });

  test('while a transaction that wrote a collection is open, answers reading it are not stored; after it, they are', async () => {
    const cache = new ResponseCache({ maxBytes: 1e6, shared: false });
    // An engine whose transaction only runs fn (a memory engine serialises reads behind an open transaction).
    const fake = { transaction: <T>(fn: () => Promise<T>) => fn(), find: async () => [], insertMany: async () => undefined };
    const engine = cache.track(fake as unknown as Engine);
    let release!: () => void;
    const open = engine.transaction(async () => {
      await engine.insertMany('authors', [{ id: 1 }]);
      await new Promise<void>((resolve) => (release = resolve));
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(await cache.record(async (r) => (await engine.find('authors', {}), cache.store('during', r, answer('x'))))).toBe(false);
    expect(await cache.record(async (r) => (await engine.find('articles', {}), cache.store('other', r, answer('o'))))).toBe(true);
    release();
    await open;
    expect(await cache.record(async (r) => (await engine.find('authors', {}), cache.store('after', r, answer('y'))))).toBe(true);
  });

  test('an aggregate records the collections its pipeline joins', async () => {
    const cache = new ResponseCache({ maxBytes: 1e6 });
    const engine = cache.track(memoryEngine({ ephemeral: true }));
    await engine.init([{ name: 'articles', indexes: [] }, { name: 'authors', indexes: [] }]);
    const collections = await cache.record(async (r) => {
      await engine.aggregate('articles', [{ $lookup: { from: 'authors', localField: 'a', foreignField: 'id', as: 'author' } }] as never);
      return [...r.collections].sort();
    });
    expect(collections).toEqual(['articles', 'authors']);
    await engine.close();
  });
});

describe('ResponseCache: exact invalidation', () => {
  const stored = (cache: ResponseCache, key: string, fill: (r: Parameters<Parameters<ResponseCache['record']>[0]>[0]) => void) =>
    cache.record((r) => (fill(r), cache.store(key, r, answer(key))));

  test('a write by key drops the entries holding that key or reading the collection as a set, and no others', () => {
    const cache = new ResponseCache({ maxBytes: 1e6, shared: false });
    stored(cache, 'populates-x', (r) => (r.collections.add('articles').add('authors'), r.sets.add('articles'), r.keyed.set('authors', new Set(['documentId'])), r.documentIds.add('x')));
    stored(cache, 'populates-y', (r) => (r.collections.add('articles').add('authors'), r.sets.add('articles'), r.keyed.set('authors', new Set(['documentId'])), r.documentIds.add('y')));
    stored(cache, 'authors-list', (r) => (r.collections.add('authors'), r.sets.add('authors')));
    stored(cache, 'articles-only', (r) => (r.collections.add('articles'), r.sets.add('articles')));
    cache.invalidate({ collection: 'authors', everyReader: false, documentIds: new Set(['x']), ids: new Set(['9']) });
    expect(['populates-x', 'populates-y', 'authors-list', 'articles-only'].map((k) => Boolean(cache.get(k)))).toEqual([false, true, false, true]);
    // A new row (or keys unknown) may be one a join looked for and did not find: every reader of the collection goes.
    cache.invalidate({ collection: 'authors', everyReader: true });
    expect(['populates-y', 'articles-only'].map((k) => Boolean(cache.get(k)))).toEqual([false, true]);
  });

  test('an insert drops a join that found nothing; putting back a version its transaction removed (a publish) is by key', async () => {
    const cache = new ResponseCache({ maxBytes: 1e6, shared: false });
    const engine = cache.track(memoryEngine({ ephemeral: true }));
    await engine.init([{ name: 'articles', indexes: [] }, { name: 'authors', indexes: [] }]);
    await engine.insertMany('articles', [{ id: 1, documentId: 'a', author: 'x' }, { id: 2, documentId: 'b', author: 'y' }]);
    await engine.insertMany('authors', [{ id: 5, documentId: 'y', _status: 'published' }]);
    const populate = (documentId: string) => [{ $match: { documentId } }, { $lookup: { from: 'authors', localField: 'author', foreignField: 'documentId', pipeline: [{ $match: { _status: 'published' } }], as: 'author' } }];
    const read = (key: string, documentId: string) => cache.record(async (r) => cache.store(key, r, answer(JSON.stringify(await engine.aggregate('articles', populate(documentId) as never)))));
    expect(await read('a-missing-x', 'a')).toBe(true);
    expect(await read('b-with-y', 'b')).toBe(true);
    // Publishing y again: its published row removed and put back in one transaction.
    await engine.transaction(async () => {
      await engine.deleteMany('authors', { documentId: 'y', _status: 'published' });
      await engine.insertMany('authors', [{ id: 6, documentId: 'y', _status: 'published' }]);
    });
    expect([Boolean(cache.get('a-missing-x')), Boolean(cache.get('b-with-y'))]).toEqual([true, false]);
    expect(await read('b-with-y', 'b')).toBe(true);
    // x published for the first time: the answer of a changes although x was not in it.
    await engine.insertMany('authors', [{ id: 7, documentId: 'x', _status: 'published' }]);
    expect([Boolean(cache.get('a-missing-x')), Boolean(cache.get('b-with-y'))]).toEqual([false, false]);
    await engine.close();
  });
});

describe('ResponseCache: shared versions', () => {
  test("another router's write drops the entries reading its collection at the next sync; a write that matched nothing is not announced", async () => {
    const bare = memoryEngine({ ephemeral: true });
    const a = new ResponseCache({ maxBytes: 1e6, shared: true });
    const b = new ResponseCache({ maxBytes: 1e6, shared: true });
    const ea = a.track(bare);
    const eb = b.track(bare);
    await ea.init([{ name: 'articles', indexes: [] }, { name: 'authors', indexes: [] }]);
    await eb.init([{ name: 'articles', indexes: [] }, { name: 'authors', indexes: [] }]);
    await ea.insertMany('authors', [{ id: 1, documentId: 'x' }]);
    await b.sync();
    const read = (key: string, collection: string) => b.record(async (r) => (await eb.find(collection, {}), b.store(key, r, answer(key))));
    expect(await read('authors', 'authors')).toBe(true);
    expect(await read('articles', 'articles')).toBe(true);
    await ea.updateMany('authors', { documentId: 'nobody' }, { $set: { name: 'n' } });
    await b.sync();
    expect([Boolean(b.get('authors')), Boolean(b.get('articles'))]).toEqual([true, true]);
    await ea.updateMany('authors', { documentId: 'x' }, { $set: { name: 'n' } });
    expect(Boolean(b.get('authors'))).toBe(true); // not synced yet: the next request syncs first
    await b.sync();
    expect([Boolean(b.get('authors')), Boolean(b.get('articles'))]).toEqual([false, true]);
    // Its own writes do not look foreign to a router.
    await eb.updateMany('authors', { documentId: 'x' }, { $set: { name: 'm' } });
    expect(await read('articles', 'articles')).toBe(true);
    await b.sync();
    expect(Boolean(b.get('articles'))).toBe(true);
    await bare.close();
  });
});
