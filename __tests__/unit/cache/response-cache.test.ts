import { memoryEngine } from '../../../lib';
import type { Engine } from '../../../lib/engine';
import { ResponseCache } from '../../../lib/cache/response-cache';
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
    const cache = new ResponseCache({ maxBytes: 3 * (1000 + 512 + 2) });
    const body = 'x'.repeat(1000);
    for (const key of ['a', 'b', 'c']) cache.record((r) => (r.collections.add('articles'), cache.store(key, r, answer(body))));
    expect(cache.count).toBe(3);
    cache.get('a');
    cache.record((r) => (r.collections.add('articles'), cache.store('d', r, answer(body))));
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')].map(Boolean)).toEqual([true, false, true, true]);
    expect(cache.size).toBeLessThanOrEqual(3 * (1000 + 512 + 2));
    expect(cache.record((r) => (r.collections.add('articles'), cache.store('huge', r, answer('y'.repeat(5000)))))).toBe(false);
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
