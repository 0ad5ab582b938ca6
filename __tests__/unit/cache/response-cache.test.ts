import { memoryEngine } from '../../../lib';
import type { Engine } from '../../../lib/engine';
import { pipelineCollections, ResponseCache } from '../../../lib/cache/response-cache';
import { normalizeQuery } from '../../../lib/http/response-cache-middleware';

const answer = (text: string) => ({ body: Buffer.from(text), etag: `"${text}"`, headers: { 'content-type': 'application/json; charset=utf-8' } });

describe('pipelineCollections', () => {
  test('names every collection of $lookup, $graphLookup, $unionWith and $facet, nested', () => {
    const pipeline = [
      { $match: { a: 1 } },
      { $lookup: { from: 'authors', as: 'a', pipeline: [{ $lookup: { from: 'files', as: 'f' } }] } },
      { $graphLookup: { from: 'categories', startWith: '$x', connectFromField: 'p', connectToField: 'id', as: 'c' } },
      { $unionWith: 'articles' },
      { $unionWith: { coll: 'components_seo', pipeline: [{ $unionWith: { coll: 'tags' } }] } },
      { $facet: { one: [{ $lookup: { from: 'locales', as: 'l' } }] } },
    ];
    expect([...pipelineCollections(pipeline as never)].sort()).toEqual(['articles', 'authors', 'categories', 'components_seo', 'files', 'locales', 'tags']);
  });
});

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
    const cache = new ResponseCache({ maxBytes: 1e6 });
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
