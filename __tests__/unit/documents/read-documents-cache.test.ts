import { findMany, findOne } from '../../../lib/documents/read-documents';
import { memoryEngine, type AggregateOptions, type Engine, type Pipeline } from '../../../lib/engine';
import { deepFreeze, parseQuery, type Query } from '../../../lib/query';
import { loadBlogRegistry } from '../../helpers/blog-registry';

/** read-documents keeps the pipeline compiled for a frozen (shared) query; other queries compile every time. */
describe('read-documents: pipelines kept with frozen queries', () => {
  const registry = loadBlogRegistry();
  const article = registry.contentType('api::article.article');
  const category = registry.contentType('api::category.category');
  let engine: Engine;
  let seen: Pipeline[];

  beforeEach(() => {
    const inner = memoryEngine({ ephemeral: true });
    seen = [];
    engine = Object.assign(Object.create(inner) as Engine, {
      aggregate: (collection: string, pipeline: Pipeline, options?: AggregateOptions) => {
        seen.push(pipeline);
        return inner.aggregate(collection, pipeline, options);
      },
    });
  });

  const parse = (rawQuery: string, action: 'find' | 'findOne'): Query =>
    parseQuery({ registry, contentType: article, rawQuery, context: { canFind: () => true }, rest: { defaultLimit: 25, maxLimit: 100 }, action });

  it('a frozen list query compiles once; its pipeline is frozen', async () => {
    const query = deepFreeze(parse('populate=*&sort=title:desc', 'find'), 'attribute');
    await findMany(registry, engine, article, query);
    await findMany(registry, engine, article, query);
    expect(seen[1]).toBe(seen[0]);
    expect(Object.isFrozen(seen[0])).toBe(true);
    expect(Object.isFrozen(seen[0]![2])).toBe(true);
    expect(Object.isFrozen((seen[0]!.at(-1) as { $unionWith: { pipeline: object[] } }).$unionWith.pipeline[0])).toBe(true);
  });

  it('a query that is not frozen, or an extra match, compiles every time', async () => {
    const query = parse('populate=*', 'find');
    await findMany(registry, engine, article, query);
    await findMany(registry, engine, article, query);
    expect(seen[1]).not.toBe(seen[0]);
    expect(seen[1]).toEqual(seen[0]);
    const frozen = deepFreeze(parse('populate=*', 'find'), 'attribute');
    await findMany(registry, engine, article, frozen, { title: 'x' });
    await findMany(registry, engine, article, frozen, { title: 'y' });
    expect(seen[3]).not.toEqual(seen[2]);
  });

  it('findOne keeps the page stages of a frozen query and matches each document', async () => {
    const query = deepFreeze(parse('populate[author]=true', 'findOne'), 'attribute');
    await findOne(registry, engine, article, query, { documentId: 'a' });
    await findOne(registry, engine, article, query, { documentId: 'b' });
    const [first, second] = seen as [Pipeline, Pipeline];
    expect(JSON.stringify(first[0])).toContain('"a"');
    expect(JSON.stringify(second[0])).toContain('"b"');
    const lookupAt = first.findIndex((stage) => '$lookup' in stage);
    expect(lookupAt).toBeGreaterThan(0);
    expect(second[lookupAt]).toBe(first[lookupAt]);
  });

  it('the same frozen query read on another content type is compiled for that type', async () => {
    const query = deepFreeze(parse('', 'find'), 'attribute');
    await findMany(registry, engine, article, query);
    await findMany(registry, engine, category, query);
    expect(seen[1]).not.toBe(seen[0]);
  });
});
