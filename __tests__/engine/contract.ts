import { DuplicateKeyError, type Engine, type Pipeline, type Row } from '../../lib/engine';
import { readPage } from '../../lib/pipeline';
import { bigIntegerRange, bigIntegerSortKey } from '../../lib/pipeline/big-integer-order';
import type { CompileContext } from '../../lib/pipeline/compile-context';
import { inverseOrderStages } from '../../lib/pipeline/inverse-order-stages';
import { isIndexChecked } from '../helpers/index-eligibility';

/** What an engine under test can do beyond the port's guarantees. */
export interface EngineCapabilities {
  /** Whether `transaction(fn)` rolls back when fn throws (false on a MongoDB server without replica set). */
  rollback: boolean;
}

let suffix = 0;
const unique = (name: string): string => `${name}_${process.pid}_${Date.now().toString(36)}_${suffix++}`;
const strip = (rows: Row[]): Row[] => rows.map(({ _id, ...rest }) => rest);

/**
 * The contract every Engine passes (Feathers' adapter-tests style): one suite, run by each engine's test file.
 *
 * @example
 * runEngineContract('memory', () => memoryEngine({ ephemeral: true }))
 */
export function runEngineContract(
  name: string,
  makeEngine: () => Engine | Promise<Engine>,
  capabilities: EngineCapabilities = { rollback: true },
): void {
  describe(`Engine contract: ${name}`, () => {
    let engine: Engine;
    let A: string;
    let B: string;

    beforeEach(async () => {
      engine = await makeEngine();
      A = unique('articles');
      B = unique('authors');
      await engine.init([
        {
          name: A,
          indexes: [
            { name: 'doc_locale_status', keys: { documentId: 1, locale: 1, _status: 1 }, unique: true },
            { name: 'id', keys: { id: 1 }, unique: true },
            { name: 'author', keys: { author: 1 } },
          ],
        },
        { name: B, indexes: [{ name: 'id', keys: { id: 1 }, unique: true }] },
      ]);
    });
    afterEach(async () => {
      await engine.deleteMany(A, {});
      await engine.deleteMany(B, {});
      await engine.close();
    });

    const article = (id: number, extra: Row = {}): Row => ({
      id, documentId: `d${id}`, locale: null, _status: 'published', title: `t${id}`, views: id * 10, ...extra,
    });

    it('runs on the bare engine: the index check of the HTTP suites would refuse its pipelines (issue 24)', () => {
      expect(isIndexChecked(engine)).toBe(false);
    });

    describe('reads and writes', () => {
      it('inserts rows and finds them in insertion order with a string _id', async () => {
        await engine.insertMany(A, [article(3), article(1), article(2)]);
        const rows = await engine.find(A, {});
        expect(rows.map((r) => r.id)).toEqual([3, 1, 2]);
        expect(rows.every((r) => typeof r._id === 'string')).toBe(true);
        expect(strip(rows)[0]).toEqual(article(3));
      });

      it('filters, sorts, skips, limits and projects', async () => {
        await engine.insertMany(A, [1, 2, 3, 4, 5].map((i) => article(i)));
        expect((await engine.find(A, { views: { $gte: 30 } })).map((r) => r.id)).toEqual([3, 4, 5]);
        const page = await engine.find(A, {}, { sort: { views: -1 }, skip: 1, limit: 2, projection: { title: 1 } });
        expect(strip(page)).toEqual([{ title: 't4' }, { title: 't3' }]);
        expect(await engine.find(A, { documentId: 'd2' })).toHaveLength(1);
        expect((await engine.find(A, { id: { $in: [5, 1] } })).map((r) => r.id)).toEqual([1, 5]);
        expect(await engine.find(A, { $and: [{ documentId: 'd2' }, { views: 0 }] })).toEqual([]);
      });

      it('calls onRow on every result row in order, and rejects with what it throws', async () => {
        await engine.insertMany(A, [1, 2, 3].map((i) => article(i)));
        const seen: unknown[] = [];
        const rows = await engine.aggregate(A, [{ $sort: { id: 1 } }], { onRow: (row) => seen.push(row.id) });
        expect(rows.map((r) => r.id)).toEqual([1, 2, 3]);
        expect(seen).toEqual([1, 2, 3]);
        const stop = new Error('over budget');
        const read = engine.aggregate(A, [{ $sort: { id: 1 } }], { onRow: (row) => { if (row.id === 2) throw stop; } });
        await expect(read).rejects.toBe(stop);
      });

      it('counts', async () => {
        await engine.insertMany(A, [1, 2, 3].map((i) => article(i)));
        expect(await engine.count(A, {})).toBe(3);
        expect(await engine.count(A, { id: 2 })).toBe(1);
        expect(await engine.count(A, { documentId: 'nope' })).toBe(0);
      });

      it('updates every matching row in place and returns the matched count', async () => {
        await engine.insertMany(A, [article(1, { tags: ['a'] }), article(2, { tags: ['a', 'b'] }), article(3)]);
        expect(await engine.updateMany(A, { id: { $lte: 2 } }, { $set: { title: 'x' }, $inc: { views: 1 }, $push: { tags: 'c' } })).toBe(2);
        expect(await engine.updateMany(A, { documentId: 'd2' }, { $pull: { tags: 'a' }, $unset: { locale: '' } })).toBe(1);
        const rows = await engine.find(A, {});
        expect(rows.map((r) => [r.id, r.title, r.views, r.tags])).toEqual([
          [1, 'x', 11, ['a', 'c']], [2, 'x', 21, ['b', 'c']], [3, 't3', 30, undefined],
        ]);
        expect('locale' in rows[1]!).toBe(false);
        expect(await engine.updateMany(A, { id: 99 }, { $set: { title: 'y' } })).toBe(0);
      });

      it('replaces the first match, keeping its _id and place', async () => {
        await engine.insertMany(A, [article(1), article(2), article(3)]);
        const before = await engine.find(A, { id: 2 });
        expect(await engine.replaceOne(A, { documentId: 'd2' }, article(2, { title: 'new' }))).toBe(1);
        const rows = await engine.find(A, {});
        expect(rows.map((r) => r.title)).toEqual(['t1', 'new', 't3']);
        expect(rows[1]!._id).toEqual(before[0]!._id);
        expect(await engine.replaceOne(A, { id: 9 }, article(9))).toBe(0);
      });

      it('deletes matching rows and returns how many', async () => {
        await engine.insertMany(A, [1, 2, 3, 4].map((i) => article(i)));
        expect(await engine.deleteMany(A, { id: { $in: [2, 4] } })).toBe(2);
        expect(await engine.deleteMany(A, { documentId: 'd1' })).toBe(1);
        expect((await engine.find(A, {})).map((r) => r.id)).toEqual([3]);
        expect(await engine.deleteMany(A, { id: 42 })).toBe(0);
      });

      it('returns copies: callers cannot change stored rows', async () => {
        const input = article(1, { tags: ['a'] });
        await engine.insertMany(A, [input]);
        (input.tags as string[]).push('mutated');
        const [found] = await engine.find(A, {});
        (found!.tags as string[]).push('mutated');
        found!.title = 'mutated';
        const [aggregated] = await engine.aggregate(A, [{ $match: {} }]);
        (aggregated!.tags as string[]).push('mutated');
        expect(strip(await engine.find(A, {}))).toEqual([article(1, { tags: ['a'] })]);
      });
    });

    describe('unique indexes', () => {
      it('rejects a duplicate key on insert, replace and update with DuplicateKeyError', async () => {
        await engine.insertMany(A, [article(1), article(2)]);
        const dup = engine.insertMany(A, [article(3, { documentId: 'd1' })]);
        await expect(dup).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(engine.insertMany(A, [article(1, { documentId: 'other' })])).rejects.toMatchObject({ name: 'DuplicateKeyError', collection: A });
        await expect(engine.replaceOne(A, { id: 2 }, article(2, { documentId: 'd1' }))).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(engine.updateMany(A, { id: 2 }, { $set: { id: 1 } })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(strip(await engine.find(A, {}))).toEqual([article(1), article(2)]);
      });

      it('allows the same documentId with another status or locale', async () => {
        await engine.insertMany(A, [article(1), article(2, { documentId: 'd1', _status: 'draft' }), article(3, { documentId: 'd1', locale: 'fr' })]);
        expect(await engine.count(A, { documentId: 'd1' })).toBe(3);
      });

      it('init again with changed definitions under the same names (a new version) replaces them', async () => {
        await engine.insertMany(A, [article(1), article(2)]);
        // 'id' loses `unique`, 'author' gets other keys and `unique`: on MongoDB, IndexOptionsConflict and
        // IndexKeySpecsConflict, answered by dropping and recreating (the warning is the engine's business).
        const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
        try {
          await engine.init([{ name: A, indexes: [
            { name: 'doc_locale_status', keys: { documentId: 1, locale: 1, _status: 1 }, unique: true },
            { name: 'id', keys: { id: 1 } },
            { name: 'author', keys: { author: 1, views: 1 }, unique: true },
          ] }]);
        } finally {
          warn.mockRestore();
        }
        await engine.insertMany(A, [article(2, { documentId: 'd2b', author: 'b' })]);
        expect(await engine.count(A, { id: 2 })).toBe(2);
        await engine.insertMany(A, [article(5, { author: 'a' })]);
        await expect(engine.insertMany(A, [article(5, { documentId: 'd5b', author: 'a' })])).rejects.toBeInstanceOf(DuplicateKeyError);
      });
    });

    describe('counters', () => {
      it('hands out increasing ids per collection, reserving ranges, stored in `counters`', async () => {
        expect(await engine.nextId(A)).toBe(1);
        expect(await engine.nextId(A, 3)).toBe(2);
        expect(await engine.nextId(A)).toBe(5);
        expect(await engine.nextId(B)).toBe(1);
        expect(strip(await engine.find('counters', { _id: A }))).toEqual([{ seq: 5 }]);
        await engine.deleteMany('counters', { _id: { $in: [A, B] } });
      });

      it('never hands out one id twice under concurrency', async () => {
        const ids = await Promise.all(Array.from({ length: 20 }, () => engine.nextId(A)));
        expect(new Set(ids).size).toBe(20);
        await engine.deleteMany('counters', { _id: A });
      });
    });

    describe('transactions', () => {
      it('commits every write of fn and returns its result', async () => {
        const result = await engine.transaction(async () => {
          await engine.insertMany(A, [article(1)]);
          await engine.updateMany(A, { id: 1 }, { $set: { title: 'in tx' } });
          return 'done';
        });
        expect(result).toBe('done');
        expect((await engine.find(A, {}))[0]!.title).toBe('in tx');
      });

      (capabilities.rollback ? it : it.skip)('rolls back every write of fn when it throws, but not the counters', async () => {
        await engine.insertMany(A, [article(1), article(2)]);
        const counterBefore = await engine.nextId(B);
        const failing = engine.transaction(async () => {
          await engine.insertMany(A, [article(3)]);
          await engine.updateMany(A, { id: 1 }, { $set: { title: 'changed' } });
          await engine.replaceOne(A, { id: 2 }, article(2, { title: 'replaced' }));
          await engine.deleteMany(A, { id: 1 });
          await engine.nextId(B);
          throw new Error('boom');
        });
        await expect(failing).rejects.toThrow('boom');
        expect(strip(await engine.find(A, {}))).toEqual([article(1), article(2)]);
        // Ids are allocated outside the transaction: the one taken by the rolled-back fn is not handed out again.
        expect(await engine.nextId(B)).toBe(counterBefore + 2);
        await engine.deleteMany('counters', { _id: B });
      });

      (capabilities.rollback ? it : it.skip)('rolls back a transaction that hits a duplicate key', async () => {
        await engine.insertMany(A, [article(1)]);
        const failing = engine.transaction(async () => {
          await engine.insertMany(A, [article(2)]);
          await engine.insertMany(A, [article(3, { documentId: 'd1' })]);
        });
        await expect(failing).rejects.toBeInstanceOf(DuplicateKeyError);
        expect((await engine.find(A, {})).map((r) => r.id)).toEqual([1]);
      });
    });

    describe('$lookup shapes: the manual\'s answers', () => {
      // Every expected result is written out as data, worked out from the MongoDB manual for these stored rows. Rows
      // reach a stage without a $sort in the collection's natural order, which this suite takes to be insertion
      // order (its first test); a sub-pipeline's joined rows likewise come in the foreign collection's natural
      // order. An `_id` is whatever the engine made, so it is masked as ID: a row keeps it unless a $project
      // excludes it (https://www.mongodb.com/docs/manual/reference/operator/aggregation/project/: `_id` is
      // included by default).
      const authors = (): Row[] => [
        { id: 1, documentId: 'a1', name: 'Ann', tags: ['x'] },
        { id: 2, documentId: 'a2', name: 'Bob', tags: ['a1'] },
        { id: 3, documentId: 'a3', name: 'Cy', tags: 'a1' },
        { id: 4, documentId: 'a1', name: 'Ann (fr)', locale: 'fr' },
      ];
      const articles = (): Row[] => [
        article(1, { author: 'a2', authors: ['a3', 'a1'] }),
        article(2, { author: 'a1', authors: [] }),
        article(3, { author: null, authors: ['a2', 'zz', 7] }),
        article(4, { author: 'a1', authors: ['a1'] }),
      ];

      const ID = '<_id>';
      /** `value` with every `_id`, at any depth, replaced by ID: a literal row says where an `_id` is, not which. */
      const maskIds = (value: unknown): unknown => {
        if (Array.isArray(value)) return value.map(maskIds);
        if (value === null || typeof value !== 'object') return value;
        return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, key === '_id' ? ID : maskIds(v)]));
      };
      /** A stored row as a stage returns it: whole, with its `_id`. */
      const withId = (row: Row): Row => ({ _id: ID, ...row });
      const [ann, bob, cy, annFr] = authors().map(withId) as [Row, Row, Row, Row];
      const [art1, art2, art3, art4] = articles().map(withId) as [Row, Row, Row, Row];
      const named = (name: string): Row => ({ name });
      /** The four articles in natural order, each with the array field `as` holding its joined rows. */
      const joinedTo = (as: string, lists: [Row[], Row[], Row[], Row[]]): Row[] =>
        [art1, art2, art3, art4].map((row, i) => ({ ...row, [as]: lists[i] }));

      /** Runs `pipeline` on the articles and asserts the manual's answer, `expected` (with `_id`s as ID). */
      async function expectRows(pipeline: Pipeline, expected: Row[]): Promise<void> {
        expect(maskIds(await engine.aggregate(A, pipeline))).toEqual(expected);
      }

      const correlated = (op: '$in' | '$eq', field: string, local: string, rest: Pipeline = []): Pipeline => [{
        $lookup: { from: B, let: { v: `$${local}` }, pipeline: [{ $match: { $expr: { [op]: [`$${field}`, '$$v'] } } }, ...rest], as: 'joined' },
      }];

      beforeEach(async () => {
        await engine.insertMany(B, authors());
        await engine.insertMany(A, articles());
      });

      it('correlated $in keeps the join collection natural order', async () => {
        // https://www.mongodb.com/docs/manual/reference/operator/aggregation/in/: true when the value is an element
        // of the array; https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/: the let
        // variables reach the sub-pipeline's $expr.
        await expectRows(correlated('$in', 'documentId', 'authors', [{ $project: { _id: 0, name: 1 } }]), joinedTo('joined', [
          [named('Ann'), named('Cy'), named('Ann (fr)')], [], [named('Bob')], [named('Ann'), named('Ann (fr)')],
        ]));
      });

      it('correlated $eq, including null and array-valued join fields', async () => {
        // A null author equals no documentId (all strings here).
        await expectRows(correlated('$eq', 'documentId', 'author'), joinedTo('joined', [[bob], [ann, annFr], [], [ann, annFr]]));
        // The aggregation $eq compares value and type: Bob's tags ['a1'] (an array) never equal 'a1', and Ann
        // (fr)'s missing tags never equal null (https://www.mongodb.com/docs/manual/reference/operator/aggregation/eq/).
        const byTags = await engine.aggregate(A, correlated('$eq', 'tags', 'author', [{ $project: { _id: 0, name: 1 } }]));
        expect(byTags.map((r) => r.joined)).toEqual([[], [{ name: 'Cy' }], [], [{ name: 'Cy' }]]);
        // $in compares whole values the same way (.../aggregation/in/): Cy's tags 'a1' is an element of ['a3', 'a1']
        // and of ['a1']; Bob's ['a1'] is an array, Ann's ['x'] too, and Ann (fr) has no tags.
        await expectRows(correlated('$in', 'tags', 'authors'), joinedTo('joined', [[cy], [], [], [cy]]));
      });

      it('correlated lookups nested in a correlated lookup, with outer variables', async () => {
        // https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/: "The let variables are
        // accessible by the stages in the pipeline, including additional $lookup stages nested in the pipeline":
        // $$v is the outer article's views. a1 is the author of articles 2 and 4, a2 of article 1, a3 of none.
        const wrote = (v: number, ...ids: number[]): Row[] => ids.map((id) => ({ _id: ID, id, v }));
        await expectRows([{
          $lookup: {
            from: B, let: { ids: '$authors', v: '$views' },
            pipeline: [
              { $match: { $expr: { $in: ['$documentId', '$$ids'] } } },
              { $lookup: { from: A, let: { d: '$documentId' }, pipeline: [{ $match: { $expr: { $eq: ['$author', '$$d'] } } }, { $project: { id: 1, v: '$$v' } }], as: 'wrote' } },
            ],
            as: 'joined',
          },
        }], joinedTo('joined', [
          [{ ...ann, wrote: wrote(10, 2, 4) }, { ...cy, wrote: [] }, { ...annFr, wrote: wrote(10, 2, 4) }],
          [],
          [{ ...bob, wrote: wrote(30, 1) }],
          [{ ...ann, wrote: wrote(40, 2, 4) }, { ...annFr, wrote: wrote(40, 2, 4) }],
        ]));
      });

      it('uncorrelated lookups', async () => {
        // https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/ (uncorrelated subqueries): the
        // same sub-pipeline result for every input row. https://www.mongodb.com/docs/manual/reference/operator/aggregation/count/:
        // one document holding the number of documents that reached $count.
        const fr = [{ _id: ID, name: 'Ann (fr)' }];
        await expectRows([{ $lookup: { from: B, pipeline: [{ $match: { locale: 'fr' } }, { $project: { name: 1 } }], as: 'fr' } }], joinedTo('fr', [fr, fr, fr, fr]));
        const n = [{ n: 4 }];
        await expectRows([{ $lookup: { from: B, let: {}, pipeline: [{ $count: 'n' }], as: 'n' } }], joinedTo('n', [n, n, n, n]));
      });

      it('other shapes: localField/foreignField, extra $match keys, sub-pipeline $match after the key', async () => {
        // https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/: an equality match of localField
        // with foreignField; a null localField matches a null or missing foreignField (every author has a documentId).
        await expectRows([{ $lookup: { from: B, localField: 'author', foreignField: 'documentId', as: 'joined' } }], joinedTo('joined', [
          [bob], [ann, annFr], [], [ann, annFr],
        ]));
        await expectRows([{ $lookup: { from: B, let: { v: '$author' }, pipeline: [{ $match: { $expr: { $eq: ['$documentId', '$$v'] }, locale: 'fr' } }], as: 'j' } }], joinedTo('j', [
          [], [annFr], [], [annFr],
        ]));
        // Then name $ne 'Ann' and a $sort by id descending (https://www.mongodb.com/docs/manual/reference/operator/aggregation/sort/).
        await expectRows(correlated('$eq', 'documentId', 'author', [{ $match: { name: { $ne: 'Ann' } } }, { $sort: { id: -1 } }]), joinedTo('joined', [
          [bob], [annFr], [], [annFr],
        ]));
      });

      it('stays correct after writes to the joined collection', async () => {
        await expectRows(correlated('$in', 'documentId', 'authors'), joinedTo('joined', [[ann, cy, annFr], [], [bob], [ann, annFr]]));
        const annDe = { id: 5, documentId: 'a1', name: 'Ann (de)', locale: 'de' };
        const zed = { id: 1, documentId: 'zz', name: 'Zed' };
        await engine.insertMany(B, [annDe]);
        await engine.updateMany(B, { id: 2 }, { $set: { documentId: 'a3' } });
        await engine.replaceOne(B, { id: 1 }, zed);
        await engine.deleteMany(B, { id: 3 });
        // Authors now, in natural order (a replaced row keeps its place, as 'reads and writes' asserts): Zed (zz),
        // Bob (a3), Ann (fr) (a1), Ann (de) (a1).
        const bobA3 = { ...bob, documentId: 'a3' };
        await expectRows(correlated('$in', 'documentId', 'authors'), joinedTo('joined', [
          [bobA3, annFr, withId(annDe)], [], [withId(zed)], [annFr, withId(annDe)],
        ]));
        await expectRows(correlated('$eq', 'documentId', 'author'), joinedTo('joined', [[], [annFr, withId(annDe)], [], [annFr, withId(annDe)]]));
      });

      it('relation order stages after a correlated key match (positions, ties by id, non-numeric ids)', async () => {
        // $indexOfArray: the first index of the value (https://www.mongodb.com/docs/manual/reference/operator/aggregation/indexOfArray/);
        // $sort by it, then by id, a number before a string (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/);
        // $unset drops the key (https://www.mongodb.com/docs/manual/reference/operator/aggregation/unset/).
        const ordered = (extra: Pipeline = []): Pipeline => [{
          $lookup: {
            from: B, let: { ids: { $ifNull: ['$authors', []] } },
            pipeline: [
              { $match: { $expr: { $in: ['$documentId', '$$ids'] } } },
              { $addFields: { __o1: { $indexOfArray: ['$$ids', '$documentId'] } } }, { $sort: { __o1: 1, id: 1 } }, { $unset: ['__o1'] },
              ...extra,
            ],
            as: 'joined',
          },
        }];
        // Article 1's ['a3', 'a1']: Cy (a3, 0), then Ann and Ann (fr) (a1, 1) by id.
        await expectRows(ordered(), joinedTo('joined', [[cy, ann, annFr], [], [bob], [ann, annFr]]));
        await expectRows(ordered([{ $project: { _id: 0, name: 1 } }]), joinedTo('joined', [
          [named('Cy'), named('Ann'), named('Ann (fr)')], [], [named('Bob')], [named('Ann'), named('Ann (fr)')],
        ]));
        const stringId = { id: 'x', documentId: 'a3', name: 'string id' };
        await engine.insertMany(B, [stringId]);
        await expectRows(ordered(), joinedTo('joined', [[cy, withId(stringId), ann, annFr], [], [bob], [ann, annFr]]));
      });

      /**
       * A list page as the compiler emits it (pipeline/compile-find): match stages, `$sort`, `$skip`/`$limit`, rows
       * numbered by `$setWindowFields` (`$documentNumber`: the position in `sortBy` order,
       * https://www.mongodb.com/docs/manual/reference/operator/aggregation/documentNumber/), then the total through
       * `$unionWith` of the same match stages and `$count`. The manual leaves `$unionWith`'s output order unspecified
       * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/unionWith/), so the result is split with
       * readPage (total anywhere, rows by `__pos`) and asserted against `expected`: the page rows in order, numbered 1..n.
       */
      async function expectPage(match: Pipeline, sort: Record<string, 1 | -1>, skip: number, limit: number, expected: { total: number; rows: Row[] }): Promise<void> {
        const window = { $setWindowFields: { sortBy: sort, output: { __pos: { $documentNumber: {} } } } };
        const union = { $unionWith: { coll: A, pipeline: [...match, { $count: '__total' }] } };
        const page = readPage(await engine.aggregate(A, [...match, { $sort: sort }, { $skip: skip }, { $limit: limit }, window, union]), true);
        expect({ total: page.total, rows: maskIds(page.rows) }).toEqual({ total: expected.total, rows: expected.rows.map((row, i) => ({ ...row, __pos: i + 1 })) });
      }

      it('list shapes of the compiler: scope $match, $sort, numbered page, total by $unionWith, relation filters', async () => {
        // All four articles are published with a null locale; $skip then $limit
        // (https://www.mongodb.com/docs/manual/reference/operator/aggregation/skip/, .../aggregation/limit/).
        await expectPage([{ $match: { _status: 'published', locale: null } }], { id: 1 }, 1, 2, { total: 4, rows: [art2, art3] });
        await expectPage([{ $match: { _status: 'published' } }], { title: -1, id: 1 }, 1, 2, { total: 4, rows: [art3, art2] });
        await expectPage([{ $match: { _status: 'published' } }], { views: -1, id: 1 }, 0, 1, { total: 4, rows: [art4] });
        const namedFilter = (localField: string): Row => ({ $lookup: {
          from: B, localField, foreignField: 'documentId', pipeline: [{ $match: { name: { $in: ['Ann', 'Cy'] } } }, { $limit: 1 }, { $project: { _id: 1 } }], as: '__rf1',
        } });
        // { __rf1: { $size: 0 } } keeps the rows that joined nothing, $nor of it the others
        // (https://www.mongodb.com/docs/manual/reference/operator/query/size/, .../query/nor/). By author: 1 joins
        // Bob only, 3 (null) nothing; 2 and 4 join Ann. By authors: 1 joins Ann and Cy, 4 Ann; 2 ([]) and 3 (Bob) none.
        const some = { $match: { $nor: [{ __rf1: { $size: 0 } }] } };
        await expectPage([{ $match: { _status: 'published' } }, namedFilter('author'), some, { $unset: ['__rf1'] }], { id: 1 }, 0, 2, { total: 2, rows: [art2, art4] });
        await expectPage([{ $match: { _status: 'published' } }, namedFilter('authors'), { $match: { __rf1: { $size: 0 } } }, { $unset: ['__rf1'] }], { id: -1 }, 1, 5, { total: 2, rows: [art2] });
        await expectRows([{ $match: { _status: 'published' } }, { $sort: { views: -1, id: 1 } }, { $limit: 1 }], [art4]);
      });

      it('$count outputs no document when nothing reaches it; a page past the end still counts', async () => {
        // https://www.mongodb.com/docs/manual/reference/operator/aggregation/count/ (mingo answers { count: 0 })
        expect(await engine.aggregate(A, [{ $match: { _status: 'nothing' } }, { $count: 'n' }])).toEqual([]);
        const past = [{ $match: { _status: 'published' } }, { $sort: { id: 1 } }, { $skip: 100 }, { $limit: 5 }, { $unionWith: { coll: A, pipeline: [{ $match: { _status: 'published' } }, { $count: '__total' }] } }];
        expect(strip(await engine.aggregate(A, past))).toEqual([{ __total: 4 }]);
      });

      it('a first $match on documentId or id selects through the index', async () => {
        await expectRows([{ $match: { documentId: 'd3', _status: 'published' } }, ...correlated('$in', 'documentId', 'authors')], [{ ...art3, joined: [bob] }]);
        await expectRows([{ $match: { id: { $in: [4, 2] } } }, { $sort: { id: -1 } }], [art4, art2]);
      });
    });

    describe('the concise $lookup (localField + foreignField + pipeline): the manual\'s answers', () => {
      // https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/ : an equality match of every
      // localField value (array elements, values along a dotted path; missing = null) with foreignField (an array
      // foreign field matches when an element equals), then the pipeline with the let variables.
      beforeEach(async () => {
        await engine.insertMany(B, [
          { id: 1, k: 'x', v: 1, locale: 'en' }, { id: 2, k: 'y', v: 2, locale: 'fr' }, { id: 3, k: ['x', 'z'], v: 3, locale: 'en' },
          { id: 4, k: null, v: 4 }, { id: 5, v: 5 }, { id: 6, k: 1, v: 6 }, { id: 7, k: '1', v: 7 },
        ]);
      });
      /** The `v`s each A row (in id order) joins through `localField`, sorted (join order is not the point here). */
      async function joined(rows: Row[], localField: string, extra: Row = {}, pipeline: Pipeline = []): Promise<unknown[][]> {
        await engine.insertMany(A, rows.map((r) => article(r.id as number, r)));
        const out = await engine.aggregate(A, [
          { $sort: { id: 1 } },
          { $lookup: { from: B, localField, foreignField: 'k', ...extra, pipeline: [...pipeline, { $sort: { v: 1 } }, { $project: { _id: 0, v: 1 } }], as: 'j' } },
        ]);
        return out.map((r) => (r.j as Row[]).map((x) => x.v));
      }

      it('runs the pipeline on the matching rows only (issue 10\'s example)', async () => {
        expect(await joined([{ id: 1, ids: ['y'] }], 'ids')).toEqual([[2]]);
      });

      it('an array localField matches any element; an array foreignField matches any element', async () => {
        expect(await joined([{ id: 1, ids: ['x', 'y'] }, { id: 2, ids: 'z' }, { id: 3, ids: ['w'] }], 'ids')).toEqual([[1, 2, 3], [3], []]);
      });

      it('a missing or null localField matches null and missing foreign fields', async () => {
        expect(await joined([{ id: 1 }, { id: 2, ids: null }, { id: 3, ids: [null] }], 'ids')).toEqual([[4, 5], [4, 5], [4, 5]]);
      });

      it('a dotted localField crosses arrays of embedded documents', async () => {
        const rows = [{ id: 1, blocks: [{ ref: 'x' }, { ref: ['y'] }, { text: 'none' }] }, { id: 2, blocks: { ref: 'z' } }, { id: 3, blocks: [{ sub: [{ ref: 'y' }] }] }];
        expect(await joined(rows, 'blocks.ref')).toEqual([[1, 2, 3], [3], [4, 5]]);
        // Rows 1 and 2 have no value on this path (null: rows 4 and 5); row 3 crosses two arrays.
        expect(await joined([{ id: 4, blocks: [{ sub: [{ ref: 'y' }, { ref: 1 }] }] }], 'blocks.sub.ref')).toEqual([[4, 5], [4, 5], [2], [2, 6]]);
      });

      it('let variables and the pipeline apply after the equality', async () => {
        const rows = [{ id: 1, ids: ['x', 'y'], locale: 'en' }, { id: 2, ids: ['x', 'y'], locale: 'fr' }];
        expect(await joined(rows, 'ids', { let: { loc: '$locale' } }, [{ $match: { $expr: { $eq: ['$locale', '$$loc'] } } }])).toEqual([[1, 3], [2]]);
      });

      it('a page: each row gets its own joined rows, cut by the pipeline\'s $limit, nested lookups run on each', async () => {
        // Rows that join nothing, one row, the same foreign rows as another row, more rows than the $limit; the
        // nested $lookup joins each joined row on its own (`back`: the A rows whose `ids` hold that row's `k`).
        await engine.insertMany(A, [
          article(1, { ids: ['x', 'y'] }), article(2, { ids: 'w' }), article(3, { ids: ['y'] }), article(4, { ids: ['x', 'y'] }), article(5, { ids: 1 }),
        ]);
        const out = await engine.aggregate(A, [
          { $sort: { id: 1 } },
          { $lookup: { from: B, localField: 'ids', foreignField: 'k', pipeline: [
            { $sort: { id: 1 } }, { $limit: 2 },
            { $lookup: { from: A, localField: 'k', foreignField: 'ids', pipeline: [{ $sort: { id: 1 } }, { $project: { _id: 0, id: 1 } }], as: 'back' } },
            { $project: { _id: 0, v: 1, back: 1 } },
          ], as: 'j' } },
          { $project: { _id: 0, id: 1, j: 1 } },
        ]);
        const x = { v: 1, back: [{ id: 1 }, { id: 4 }] };
        const y = { v: 2, back: [{ id: 1 }, { id: 3 }, { id: 4 }] };
        expect(out).toEqual([{ id: 1, j: [x, y] }, { id: 2, j: [] }, { id: 3, j: [y] }, { id: 4, j: [x, y] }, { id: 5, j: [{ v: 6, back: [{ id: 5 }] }] }]);
      });

      it('compares values with their types: 1 is not \'1\'', async () => {
        expect(await joined([{ id: 1, ids: 1 }, { id: 2, ids: '1' }, { id: 3, ids: [1.0, true] }], 'ids')).toEqual([[6], [7], [6]]);
      });
    });

    describe('the kept order of a mappedBy side (pipeline/inverse-order-stages): the manual\'s answers', () => {
      // A to-one owner sorts on its stored number; a to-many owner on the n of its { d, n } entry for the source
      // ($filter, then $max: null for none). Null and missing sort first, then by id
      // (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/).
      const ctx = { next: (prefix: string) => `${prefix}1` } as unknown as CompileContext;
      beforeEach(async () => {
        await engine.insertMany(B, [
          { id: 1, k: 'x', _inverseOrder: { k: 2 } }, { id: 2, k: 'x' }, { id: 3, k: 'x', _inverseOrder: { k: 1 } }, { id: 4, k: 'x', _inverseOrder: {} },
          { id: 5, m: ['x', 'y'], _inverseOrder: { m: [{ d: 'x', n: 3 }, { d: 'y', n: 1 }] } },
          { id: 6, m: ['x', 'y'], _inverseOrder: { m: [{ d: 'y', n: 2 }] } },
          { id: 7, m: ['y', 'x'], _inverseOrder: { m: [{ d: 'x', n: 1 }, { d: 'y', n: 5 }] } },
          { id: 8, m: ['x'] },
        ]);
        await engine.insertMany(A, [article(1, { documentId: 'x' }), article(2, { documentId: 'y' }), article(3, { documentId: 'z' })]);
      });
      async function joined(field: string, toMany: boolean): Promise<unknown[][]> {
        const order = inverseOrderStages(ctx, { field, toMany });
        const pipeline = [...order.stages, ...(order.temps.length ? [{ $unset: order.temps }] : []), { $project: { _id: 0, id: 1 } }];
        const letPart = Object.keys(order.let).length ? { let: order.let } : {};
        const out = await engine.aggregate(A, [{ $sort: { id: 1 } }, { $lookup: { from: B, localField: 'documentId', foreignField: field, ...letPart, pipeline, as: 'j' } }]);
        return out.map((r) => (r.j as Row[]).map((x) => x.id));
      }

      it('a to-one owner: by its position, rows without one first by id', async () => {
        expect(await joined('k', false)).toEqual([[2, 4, 3, 1], [], []]);
      });

      it('a to-many owner: by its position for the source document, rows without one first by id', async () => {
        expect(await joined('m', true)).toEqual([[6, 8, 7, 5], [5, 6, 7], []]);
      });
    });

    describe('relation-filter shapes of the compiler (pipeline/compile-filters): the manual\'s answers', () => {
      // One concise $lookup per relation filter (https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/,
      // "Correlated Subqueries Using Concise Syntax"): the foreign rows whose foreignField equals a localField value
      // (an array localField: any element; a dotted path: every value along it, arrays of documents crossed; a
      // missing or null localField: null, which matches a null or missing foreignField), then the pipeline; the
      // root $match keeps the rows whose joined array is empty ("no related row") or not.
      beforeEach(async () => {
        await engine.insertMany(B, [
          { id: 1, documentId: 'a1', name: 'Ann', _status: 'published' },
          { id: 2, documentId: 'a2', name: 'Bob', _status: 'published' },
          { id: 3, documentId: 'a3', name: 'Cy', _status: 'draft' },
          { id: 4, documentId: 'a2', name: 'Bob (draft)', _status: 'draft' },
        ]);
        await engine.insertMany(A, [
          article(1, { author: 'a2', authors: ['a3', 'a1'] }),
          article(2, { author: 'a1', authors: [] }),
          article(3, { author: null, blocks: [{ author: 'a2' }, { text: 'x' }] }),
          article(4, { authors: ['a2'], blocks: [{ author: ['zz', 'a3'] }] }),
        ]);
      });
      const filter = (localField: string, pipeline: Pipeline, test: 'some' | 'none', from = B, foreignField = 'documentId'): Pipeline => [
        { $match: { _status: 'published' } },
        { $lookup: { from, localField, foreignField, pipeline: [...pipeline, { $limit: 1 }, { $project: { _id: 1 } }], as: '__rf1' } },
        { $match: test === 'none' ? { __rf1: { $size: 0 } } : { $nor: [{ __rf1: { $size: 0 } }] } },
        { $unset: ['__rf1'] },
        { $sort: { id: 1 } },
      ];
      const ids = async (pipeline: Pipeline, on = A): Promise<unknown[]> => {
        const rows = await engine.aggregate(on, pipeline);
        expect(rows.every((r) => !Object.hasOwn(r, '__rf1'))).toBe(true);
        return rows.map((r) => r.id);
      };
      const published = { $match: { _status: 'published' } };

      it('to-one: the scope and the filter apply to the joined rows only', async () => {
        expect(await ids(filter('author', [published, { $match: { name: 'Bob' } }], 'some'))).toEqual([1]);
        expect(await ids(filter('author', [published, { $match: { name: 'Cy' } }], 'some'))).toEqual([]);
        expect(await ids(filter('author', [published], 'none'))).toEqual([3, 4]);
      });

      it('to-many: any element joins; an empty array and a missing field join nothing here', async () => {
        expect(await ids(filter('authors', [published, { $match: { name: { $in: ['Ann', 'Bob'] } } }], 'some'))).toEqual([1, 4]);
        expect(await ids(filter('authors', [published], 'none'))).toEqual([2, 3]);
      });

      it('a path through a repeatable component: every value along it, arrays of documents crossed', async () => {
        expect(await ids(filter('blocks.author', [published], 'some'))).toEqual([3]);
        expect(await ids(filter('blocks.author', [], 'some'))).toEqual([3, 4]);
        expect(await ids(filter('blocks.author', [], 'none'))).toEqual([1, 2]);
      });

      it('a missing or null localField is null: it joins the foreign rows without the field', async () => {
        await engine.insertMany(B, [{ id: 5, name: 'no documentId', _status: 'published' }]);
        expect(await ids(filter('author', [published, { $match: { name: 'no documentId' } }], 'some'))).toEqual([3, 4]);
      });

      it('the mappedBy side: documentId against the owning field of the target, an array field by element', async () => {
        const byAuthor = (test: 'some' | 'none', pipeline: Pipeline = []): Pipeline => filter('documentId', pipeline, test, A, 'author');
        expect(await ids(byAuthor('some'), B)).toEqual([1, 2]);
        expect(await ids(byAuthor('none'), B)).toEqual([]);
        expect(await ids(byAuthor('some', [{ $match: { views: { $gte: 20 } } }]), B)).toEqual([1]);
        expect(await ids(filter('documentId', [], 'some', A, 'authors'), B)).toEqual([1, 2]);
      });

      it('nested: a relation filter inside the joined pipeline', async () => {
        const inner: Pipeline = [
          { $lookup: { from: A, localField: 'documentId', foreignField: 'author', pipeline: [{ $match: { views: 10 } }, { $limit: 1 }, { $project: { _id: 1 } }], as: '__rf2' } },
          { $match: { $nor: [{ __rf2: { $size: 0 } }] } },
        ];
        expect(await ids(filter('authors', inner, 'some'))).toEqual([4]);
      });
    });

    describe('aggregation comparison expressions (BSON comparison order)', () => {
      // https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/ (Null < Numbers < String <
      // Object < Array < Boolean) and the comparison expression operators, which compare value and type across
      // types (https://www.mongodb.com/docs/manual/reference/operator/aggregation/eq/, .../aggregation/lt/,
      // .../aggregation/cmp/, .../aggregation/in/): a missing field is below null and never equals it, an
      // array is one value (never equal to an element), strings compare by bytes ('X' < 'x').
      const values: [string, unknown][] = [
        ['null', null], ['5', 5], ["'x'", 'x'], ['{a:1}', { a: 1 }], ['[5]', [5]], ['true', true], ['missing', undefined], ['[]', []], ["'X'", 'X'],
      ];
      const expressions = {
        cmpX: { $cmp: ['$v', 'x'] },
        eq5: { $eq: ['$v', 5] },
        eqArray5: { $eq: ['$v', { $literal: [5] }] },
        eqNull: { $eq: ['$v', null] },
        neNull: { $ne: ['$v', null] },
        gtNull: { $gt: ['$v', null] },
        gteString: { $gte: ['$v', 'a'] },
        ltObject: { $lt: ['$v', { $literal: { a: 1 } }] },
        lteArray: { $lte: ['$v', { $literal: [5] }] },
        in: { $in: ['$v', { $literal: [5, 'x', null] }] },
      };
      const expected: Record<string, unknown[]> = {
        //            null   5      'x'    {a:1}  [5]    true   missing []     'X'
        cmpX: [-1, -1, 0, 1, 1, 1, -1, 1, -1],
        eq5: [false, true, false, false, false, false, false, false, false],
        eqArray5: [false, false, false, false, true, false, false, false, false],
        eqNull: [true, false, false, false, false, false, false, false, false],
        neNull: [false, true, true, true, true, true, true, true, true],
        gtNull: [false, true, true, true, true, true, false, true, true],
        gteString: [false, false, true, true, true, true, false, true, false],
        ltObject: [true, true, true, false, false, false, true, false, true],
        lteArray: [true, true, true, true, true, false, true, true, true],
        in: [true, true, true, false, false, false, false, false, false],
      };

      it('cross-type comparisons follow the BSON order, arrays and missing fields included', async () => {
        await engine.insertMany(A, values.map(([, v], i) => article(i + 1, v === undefined ? {} : { v })));
        const rows = await engine.aggregate(A, [{ $sort: { id: 1 } }, { $project: { _id: 0, id: 1, ...expressions } }]);
        for (const name of Object.keys(expressions)) {
          const got = values.map(([label], i) => [label, rows[i]![name]]);
          expect({ name, got }).toEqual({ name, got: values.map(([label], i) => [label, expected[name]![i]]) });
        }
      });

      it('a correlated $expr $eq joins an array only to an equal array, and $in compares whole values', async () => {
        await engine.insertMany(A, [article(1, { v: 'a' }), article(2, { v: ['a'] }), article(3, { v: ['a', 'b'] })]);
        await engine.insertMany(B, [{ id: 1, k: 'a' }, { id: 2, k: ['a'] }, { id: 3, k: ['a', 'b'] }, { id: 4, k: ['b', 'a'] }]);
        const join = (op: '$eq' | '$in', local: unknown) => engine.aggregate(A, [
          { $sort: { id: 1 } },
          { $lookup: { from: B, let: { v: local }, pipeline: [{ $match: { $expr: { [op]: ['$k', '$$v'] } } }, { $sort: { id: 1 } }, { $project: { _id: 0, id: 1 } }], as: 'j' } },
          { $project: { _id: 0, id: 1, j: 1 } },
        ]);
        expect(await join('$eq', '$v')).toEqual([{ id: 1, j: [{ id: 1 }] }, { id: 2, j: [{ id: 2 }] }, { id: 3, j: [{ id: 3 }] }]);
        expect(await join('$in', { $ifNull: ['$authors', ['a', ['a', 'b']]] })).toEqual([
          { id: 1, j: [{ id: 1 }, { id: 3 }] }, { id: 2, j: [{ id: 1 }, { id: 3 }] }, { id: 3, j: [{ id: 1 }, { id: 3 }] },
        ]);
      });

      it('$min / $max: BSON order, nulls and missing ignored, one array operand traversed (relation sort keys)', async () => {
        // https://www.mongodb.com/docs/manual/reference/operator/aggregation/min/ (and .../max/): with one operand that
        // resolves to an array, its elements; with a list of operands, an array is one value; null and missing
        // values are ignored, null when nothing is left. Arrays compare element by element, below booleans.
        await engine.insertMany(A, [
          article(1, { s: [{ k: ['b', 'a'] }, { k: ['a', 'z'] }] }), article(2, { s: [{ k: ['c'] }, { k: 'x' }, { k: null }, {}] }),
          article(3, { s: [] }), article(4, { s: [{ k: true }, { k: 5 }, { k: 'y' }] }),
        ]);
        const rows = await engine.aggregate(A, [
          { $sort: { id: 1 } },
          { $project: { _id: 0, min: { $min: '$s.k' }, max: { $max: '$s.k' }, list: { $min: ['$missing', null, { $literal: [1] }, 'q'] }, none: { $max: [null, '$missing'] } } },
        ]);
        expect(rows).toEqual([
          { min: ['a', 'z'], max: ['b', 'a'], list: 'q', none: null },
          { min: 'x', max: ['c'], list: 'q', none: null },
          { min: null, max: null, list: 'q', none: null },
          { min: 5, max: true, list: 'q', none: null },
        ]);
      });

      it('$min / $max as $group accumulators: the operand per document, arrays compared whole, in BSON order', async () => {
        // https://www.mongodb.com/docs/manual/reference/operator/aggregation/max/ (and .../min/): in $group, the
        // maximum of the expression applied to each document of the group; "if the expression resolves to an array,
        // $max does not traverse the array and compares the array as a whole"; nulls and missing values ignored,
        // null when nothing is left. Arrays compare element by element (a prefix first), above strings.
        await engine.insertMany(A, [
          article(1, { g: 'a', arr: [1, 2], v: [1, 5] }), article(2, { g: 'a', arr: [1], v: 3 }), article(3, { g: 'a', arr: [], v: null }),
          article(4, { g: 'b', arr: ['x', 'y', 'z'], v: 'x' }), article(5, { g: 'b', arr: [9] }), article(6, { g: 'c', arr: [], v: null }),
        ]);
        const accumulators = {
          maxSize: { $max: { $size: '$arr' } },
          minSize: { $min: { $size: '$arr' } },
          max: { $max: '$v' },
          min: { $min: '$v' },
          maxArray: { $max: '$arr' },
          minArray: { $min: '$arr' },
          maxOfMax: { $max: { $max: '$arr' } }, // the expression per document (its array traversed), the accumulator over them
          minOfList: { $min: { $min: ['$v', 4] } }, // with a list of operands an array is one value: [1, 5] > 4
        };
        const expected = [
          { _id: 'a', maxSize: 2, minSize: 0, max: [1, 5], min: 3, maxArray: [1, 2], minArray: [], maxOfMax: 2, minOfList: 3 },
          { _id: 'b', maxSize: 3, minSize: 1, max: 'x', min: 'x', maxArray: ['x', 'y', 'z'], minArray: [9], maxOfMax: 'z', minOfList: 4 },
          { _id: 'c', maxSize: 0, minSize: 0, max: null, min: null, maxArray: [], minArray: [], maxOfMax: null, minOfList: 4 },
        ];
        expect(await engine.aggregate(A, [{ $group: { _id: '$g', ...accumulators } }, { $sort: { _id: 1 } }])).toEqual(expected);
      });

      it('$min / $max as expressions of a computed operand: its elements when it is one array, else the operands', async () => {
        // https://www.mongodb.com/docs/manual/reference/operator/aggregation/max/: "With a single expression as its
        // operand, if the expression resolves to an array, $max traverses into the array"; with a list, an array is
        // one value.
        await engine.insertMany(A, [article(1, { arr: [3, 'x', null] }), article(2, { arr: [] })]);
        const rows = await engine.aggregate(A, [
          { $sort: { id: 1 } },
          { $project: { _id: 0, max: { $max: { $concatArrays: ['$arr', [0]] } }, min: { $min: { $concatArrays: ['$arr', [0]] } }, list: { $max: [{ $size: '$arr' }, 1] }, whole: { $max: [{ $concatArrays: ['$arr', [0]] }, 'z'] } } },
        ]);
        expect(rows).toEqual([
          { max: 'x', min: 0, list: 3, whole: [3, 'x', null, 0] },
          { max: 0, min: 0, list: 1, whole: [0] },
        ]);
      });
    });

    describe('$sort in MongoDB\'s order: arrays, empty arrays, missing, null, mixed types (the manual\'s answers)', () => {
      // https://www.mongodb.com/docs/manual/reference/operator/aggregation/sort/ ("Sort with Arrays") and
      // https://www.mongodb.com/docs/manual/reference/method/cursor.sort/: an ascending sort compares the smallest
      // element of an array, a descending sort the largest. https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/:
      // types in BSON order, a missing field sorts as null, an empty array below null and missing, strings by
      // "simple binary comparison" (UTF-8 bytes: code points). Every sort ends on `id`, as the compiler's do.
      const ids = async (pipeline: Pipeline): Promise<unknown[]> => (await engine.aggregate(A, pipeline)).map((r) => r.id);
      const sortedIds = (spec: Record<string, 1 | -1>): Promise<unknown[]> => ids([{ $sort: spec }]);

      it('an array by its smallest element ascending, its largest descending; [] below missing (DOCS-2760)', async () => {
        // The example of https://jira.mongodb.org/browse/DOCS-2760, as MongoDB sorts it.
        await engine.insertMany(A, [article(1), article(2, { a: 1 }), article(3, { a: [] }), article(4, { a: [1] }), article(5, { a: [0, 1] })]);
        expect(await sortedIds({ a: 1, id: 1 })).toEqual([3, 1, 5, 2, 4]);
        expect(await sortedIds({ a: -1, id: 1 })).toEqual([2, 4, 5, 1, 3]);
      });

      it('a field inside an array of embedded documents (a repeatable component), on every path of the runner', async () => {
        await engine.insertMany(A, [
          article(1, { c: [{ n: 'b' }, { n: 'z' }] }), article(2, { c: [{ n: 'c' }, { n: 'd' }] }), article(3, { c: [] }), article(4),
        ]);
        expect(await sortedIds({ 'c.n': 1, id: 1 })).toEqual([3, 4, 1, 2]);
        expect(await sortedIds({ 'c.n': -1, id: 1 })).toEqual([1, 2, 4, 3]);
        expect(await ids([{ $sort: { 'c.n': -1, id: 1 } }, { $limit: 1 }])).toEqual([1]);
        expect(await ids([{ $sort: { 'c.n': -1, id: 1 } }, { $skip: 1 }, { $limit: 2 }])).toEqual([2, 4]);
        const numbered = await engine.aggregate(A, [{ $setWindowFields: { sortBy: { 'c.n': -1, id: 1 }, output: { __pos: { $documentNumber: {} } } } }]);
        expect(numbered.map((r) => [r.id, r.__pos]).sort((x, y) => Number(x[0]) - Number(y[0]))).toEqual([[1, 1], [2, 2], [3, 4], [4, 3]]);
        expect((await engine.find(A, {}, { sort: { 'c.n': -1, id: 1 }, skip: 1, limit: 2, projection: { id: 1 } })).map((r) => r.id)).toEqual([2, 4]);
      });

      it('arrays along a dotted path: each element followed, leaf arrays opened, an element without the field is null', async () => {
        await engine.insertMany(A, [
          article(1, { c: [{ n: ['m', 'a'] }, { n: 'k' }] }), // a, m, k
          article(2, { c: [{ n: 'b' }, { x: 1 }] }), // b, null
          article(3, { c: [{ n: [] }, { n: 'z' }] }), // [] (below null), z
          article(4, { c: { n: 'c' } }), // one embedded document: c
        ]);
        expect(await sortedIds({ 'c.n': 1, id: 1 })).toEqual([3, 2, 1, 4]);
        expect(await sortedIds({ 'c.n': -1, id: 1 })).toEqual([3, 1, 4, 2]);
      });

      it('null and missing sort as equals (the tie-breaker decides), below every other value', async () => {
        await engine.insertMany(A, [article(1, { a: null }), article(2), article(3, { a: 'x' }), article(4, { a: 0 })]);
        expect(await sortedIds({ a: 1, id: -1 })).toEqual([2, 1, 4, 3]);
        expect(await sortedIds({ a: -1, id: 1 })).toEqual([3, 4, 1, 2]);
      });

      it('mixed types in BSON order; an array of mixed types by its smallest / largest in that order', async () => {
        await engine.insertMany(A, [
          article(1, { a: true }), article(2, { a: 'b' }), article(3, { a: 2 }), article(4, { a: { k: 1 } }), article(5, { a: null }), article(6, { a: [3, 'a'] }),
        ]);
        // null < numbers < strings < objects < booleans; [3, 'a'] is 3 ascending, 'a' descending.
        expect(await sortedIds({ a: 1, id: 1 })).toEqual([5, 3, 6, 2, 4, 1]);
        expect(await sortedIds({ a: -1, id: 1 })).toEqual([1, 4, 2, 6, 3, 5]);
      });

      it('strings by code point, also where UTF-16 code units order differently (U+FF5A < U+1F600)', async () => {
        await engine.insertMany(A, [article(1, { s: '\u{1F600}' }), article(2, { s: '\uFF5A' }), article(3, { s: 'a' })]);
        expect(await sortedIds({ s: 1, id: 1 })).toEqual([3, 2, 1]);
        expect(await sortedIds({ s: -1, id: 1 })).toEqual([1, 2, 3]);
      });

      it('several keys: each its own smallest / largest, the next key breaking ties', async () => {
        await engine.insertMany(A, [
          article(1, { c: [{ n: 'a' }, { n: 'q' }], v: 2 }), article(2, { c: [{ n: 'q' }], v: 1 }), article(3, { c: [{ n: 'b' }, { n: 'a' }], v: 1 }),
        ]);
        expect(await sortedIds({ 'c.n': -1, v: 1, id: 1 })).toEqual([2, 1, 3]);
        expect(await sortedIds({ 'c.n': 1, v: -1, id: 1 })).toEqual([1, 3, 2]);
      });
    });

    describe('big integers stored as decimal strings compare numerically (pipeline/big-integer-order)', () => {
      // Strings compare by code units (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/):
      // the compiled conditions and sort key must still give numeric order, on every engine.
      const VALUES = ['-99999999999999999999', '-100', '-10', '-9', '-1', '0', '1', '7', '9', '10', '11', '99', '100', '123', '99999999999999999999'];
      const OPERANDS = ['-100', '-11', '-10', '-9', '0', '5', '9', '10', '100', '124', '99999999999999999999'];
      beforeEach(async () => {
        await engine.insertMany(A, [...VALUES.map((big, i) => article(i + 1, { big })), article(100, { big: null }), article(101)]);
      });

      it.each(['$lt', '$lte', '$gt', '$gte'] as const)('%s', async (op) => {
        const test = { $lt: (a: bigint, b: bigint) => a < b, $lte: (a: bigint, b: bigint) => a <= b, $gt: (a: bigint, b: bigint) => a > b, $gte: (a: bigint, b: bigint) => a >= b }[op];
        for (const operand of OPERANDS) {
          const rows = await engine.aggregate(A, [{ $match: bigIntegerRange('big', op, operand) }, { $sort: { id: 1 } }]);
          expect({ operand, found: rows.map((r) => r.big) }).toEqual({ operand, found: VALUES.filter((v) => test(BigInt(v), BigInt(operand))) });
        }
      });

      it('the sort key orders numerically, nulls and missing values first; items of an array each', async () => {
        const sorted = async (dir: 1 | -1): Promise<unknown[]> => (await engine.aggregate(A, [
          { $addFields: { __bk: bigIntegerSortKey('big') } }, { $sort: { __bk: dir, id: 1 } }, { $project: { _id: 0, big: 1 } },
        ])).map((r) => r.big ?? null);
        const numeric = [...VALUES].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
        expect(await sorted(1)).toEqual([null, null, ...numeric]);
        expect(await sorted(-1)).toEqual([...[...numeric].reverse(), null, null]);
        await engine.insertMany(A, [article(200, { items: [{ big: '10' }, { big: '9' }] }), article(201, { items: [{ big: '-5' }, { big: '100' }] })]);
        const byItem = async (dir: 1 | -1): Promise<unknown[]> => (await engine.aggregate(A, [
          { $match: { items: { $exists: true } } }, { $addFields: { __bk: bigIntegerSortKey('items.big') } }, { $sort: { __bk: dir, id: 1 } },
        ])).map((r) => r.id);
        // Ascending: by each row's smallest item (-5 < 9); descending: by each row's largest (100 > 10).
        expect(await byItem(1)).toEqual([201, 200]);
        expect(await byItem(-1)).toEqual([201, 200]);
      });
    });

    describe('partial unique indexes (unique attributes, scoped to locale and status)', () => {
      let C: string;
      const page = (id: number, extra: Row = {}): Row => ({ id, documentId: `p${id}`, locale: 'en', _status: 'published', slug: `s${id}`, rank: id, ...extra });

      beforeEach(async () => {
        C = unique('pages');
        await engine.init([{
          name: C,
          indexes: [
            { name: 'unique_slug', keys: { slug: 1, locale: 1, _status: 1 }, unique: true, partialFilter: { slug: { $type: 'string' } } },
            { name: 'unique_rank', keys: { rank: 1, locale: 1, _status: 1 }, unique: true, partialFilter: { rank: { $type: 'number' } } },
          ],
        }]);
      });
      afterEach(async () => {
        await engine.deleteMany(C, {});
      });

      it('rejects a second row with the value in the same locale and status, naming the index', async () => {
        await engine.insertMany(C, [page(1)]);
        await expect(engine.insertMany(C, [page(2, { slug: 's1' })])).rejects.toMatchObject({ name: 'DuplicateKeyError', collection: C, index: 'unique_slug' });
        await expect(engine.insertMany(C, [page(2, { rank: 1 })])).rejects.toMatchObject({ name: 'DuplicateKeyError', index: 'unique_rank' });
        expect(await engine.count(C, {})).toBe(1);
      });

      it('allows the value in another locale or status', async () => {
        await engine.insertMany(C, [page(1), page(2, { slug: 's1', rank: 1, locale: 'fr' }), page(3, { slug: 's1', rank: 1, _status: 'draft' })]);
        expect(await engine.count(C, { slug: 's1' })).toBe(3);
      });

      it('never lets rows without a value clash: null and missing are not indexed', async () => {
        await engine.insertMany(C, [page(1, { slug: null, rank: null }), page(2, { slug: null, rank: null })]);
        const { slug: _s, rank: _r, ...bare } = page(3);
        await engine.insertMany(C, [bare, { ...bare, id: 4, documentId: 'p4' }]);
        expect(await engine.count(C, {})).toBe(4);
      });

      it('checks updates and replacements, and frees a value once its row changes', async () => {
        await engine.insertMany(C, [page(1), page(2)]);
        await expect(engine.updateMany(C, { id: 2 }, { $set: { slug: 's1' } })).rejects.toMatchObject({ index: 'unique_slug' });
        await expect(engine.replaceOne(C, { id: 2 }, page(2, { rank: 1 }))).rejects.toMatchObject({ index: 'unique_rank' });
        await engine.updateMany(C, { id: 1 }, { $set: { slug: null } });
        await engine.updateMany(C, { id: 2 }, { $set: { slug: 's1' } });
        expect((await engine.find(C, { slug: 's1' })).map((r) => r.id)).toEqual([2]);
      });

      (capabilities.rollback ? it : it.skip)('rolls back a transaction whose write hits a partial unique index', async () => {
        await engine.insertMany(C, [page(1)]);
        const failing = engine.transaction(async () => {
          await engine.insertMany(C, [page(2)]);
          await engine.insertMany(C, [page(3, { slug: 's2' })]);
        });
        await expect(failing).rejects.toMatchObject({ index: 'unique_slug' });
        expect((await engine.find(C, {})).map((r) => r.id)).toEqual([1]);
      });
    });
  });
}
