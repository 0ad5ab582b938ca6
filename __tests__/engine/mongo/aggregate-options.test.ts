import { DocumentTooLargeError, mongoEngine } from '../../../lib/engine';
import { findMany, findOne } from '../../../lib/documents/read-documents';
import { ValidationError } from '../../../lib/errors';
import { article, query, registry } from '../../unit/pipeline/fixtures';
import { fakeConnection } from './fake-connection';

/**
 * What mongoEngine sends with an aggregate, seen through a fake driver: list reads may spill a blocking `$sort`
 * to disk (`allowDiskUse`, https://www.mongodb.com/docs/manual/reference/command/aggregate/: on 5.0 a sort over
 * 100 MB fails without it); a result document over 16 MB (BSONObjectTooLarge, 10334) is a 400, not a 500.
 */
describe('mongoEngine aggregate options', () => {
  it('list reads pass allowDiskUse: true; one-document reads and plain aggregates do not', async () => {
    const { connection, log } = fakeConnection();
    const engine = mongoEngine({ connection });
    await findMany(registry, engine, article, query(article));
    await findOne(registry, engine, article, query(article), { documentId: 'a1' });
    await engine.aggregate('articles', [{ $match: {} }]);
    expect(log.aggregates.map((a) => [a.collection, a.options.allowDiskUse])).toEqual([['articles', true], ['articles', undefined], ['articles', undefined]]);
    expect(log.aggregates[0]!.pipeline.at(-1)).toMatchObject({ $unionWith: { coll: 'articles' } });
    await engine.close();
  });

  it.each([
    ['code 10334', { code: 10334 }],
    ['codeName BSONObjectTooLarge', { codeName: 'BSONObjectTooLarge', code: 10334 }],
  ])('%s becomes DocumentTooLargeError, and a read answers a 400 ValidationError', async (_name, fields) => {
    const { connection } = fakeConnection({ onAggregate: () => { throw Object.assign(new Error('BSONObj size: 17000000 is invalid'), fields); } });
    // (the fake throws from toArray, as the driver does when the server answers the getMore/aggregate)
    const engine = mongoEngine({ connection });
    await expect(engine.aggregate('articles', [])).rejects.toBeInstanceOf(DocumentTooLargeError);
    const error = await findMany(registry, engine, article, query(article)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 400, details: { limit: 16 * 1024 * 1024 } });
    await engine.close();
  });

  it('inside a transaction a trailing $unionWith runs as a second aggregate of the session (the manual forbids it there)', async () => {
    const { connection, log } = fakeConnection({ onAggregate: (pipeline, name) => [{ from: name, stages: pipeline.length }] });
    const engine = mongoEngine({ connection });
    const union = { $unionWith: { coll: 'authors', pipeline: [{ $match: { a: 1 } }, { $count: '__total' }] } };
    const inside = await engine.transaction(() => engine.aggregate('articles', [{ $match: {} }, { $sort: { id: 1 } }, union]));
    expect(inside).toEqual([{ from: 'articles', stages: 2 }, { from: 'authors', stages: 2 }]);
    expect(log.aggregates.map((a) => [a.collection, a.pipeline, a.session])).toEqual([
      ['articles', [{ $match: {} }, { $sort: { id: 1 } }], true],
      ['authors', union.$unionWith.pipeline, true],
    ]);
    log.aggregates.length = 0;
    expect(await engine.aggregate('articles', [{ $match: {} }, union])).toEqual([{ from: 'articles', stages: 2 }]);
    expect(log.aggregates.map((a) => [a.collection, a.session])).toEqual([['articles', false]]);
    await engine.close();
  });

  it('other driver errors pass through unchanged', async () => {
    const boom = Object.assign(new Error('boom'), { code: 2 });
    const { connection } = fakeConnection({ onAggregate: () => { throw boom; } });
    const engine = mongoEngine({ connection });
    await expect(findMany(registry, engine, article, query(article))).rejects.toBe(boom);
    await engine.close();
  });
});
