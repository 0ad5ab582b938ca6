import request from 'supertest';
import { createBlogApp } from '../../../examples/blog/app';
import { memoryEngine, type Row } from '../../../lib/engine';
import type { PipelinePath, StagePath } from '../../../lib/engine/memory/execution/fast-path';
import { limit } from '../../../lib/engine/memory/execution/fast-paths/limit';
import { PIPELINE_PATHS, STAGE_PATHS } from '../../../lib/engine/memory/execution/registry';
import { aggregateVariants } from '../../../lib/engine/memory/memory-engine';
import { differences, describe as describeDifference, fastPathCheckedEngine, FAST_PATH_VARIANTS, type FastPathDifference } from '../../helpers/fast-path-check';

/**
 * The proof that each fast path of the memory engine is only an optimisation: the same answer with it switched
 * off (helpers/fast-path-check.ts). Every aggregate of the HTTP suites and the corpus replay runs under it
 * (helpers/test-engine's testEngine); this file proves the check itself can fail, and that the blog API's reads
 * reach every stage and pipeline path (a path no pipeline reaches would be proved by nothing).
 */
describe('memory engine: every fast path switched off gives the same answers', () => {
  it('differences: rows, order and errors compared, the first variant the reference', () => {
    const variants = [[], ['a'], ['b'], ['c']];
    const boom = new RangeError('too many');
    expect(differences('x', [], variants, [[{ id: 1 }, { id: 2 }], [{ id: 1 }, { id: 2 }], [{ id: 2 }, { id: 1 }], [{ id: 1 }]]).map((d) => d.off)).toEqual([['b'], ['c']]);
    expect(differences('x', [], variants.slice(0, 2), [boom, new RangeError('too many')])).toEqual([]);
    expect(differences('x', [], variants.slice(0, 2), [boom, new TypeError('too many')])).toHaveLength(1);
    expect(differences('x', [], variants.slice(0, 2), [boom, []])).toHaveLength(1);
    expect(differences('x', [], variants.slice(0, 2), [[{ n: -0 }], [{ n: 0 }]])).toHaveLength(1);
  });

  it('disabledFastPaths: names checked (did-you-mean), the same answers without them', async () => {
    expect(() => memoryEngine({ disabledFastPaths: ['sortt'] })).toThrow(/disabledFastPaths\.sortt: unknown fast path.*sort/);
    expect(() => memoryEngine({ disabledFastPaths: 'sort' as never })).toThrow('`disabledFastPaths` must be an array of fast path names');
    const rows = [{ id: 2, t: ['b', 'z'] }, { id: 1, t: 'c' }, { id: 3 }];
    const pipeline = [{ $match: { id: { $gt: 0 } } }, { $sort: { t: -1, id: 1 } }, { $limit: 2 }];
    const answers = await Promise.all([[], FAST_PATH_VARIANTS.at(-1)!].map(async (off) => {
      const engine = memoryEngine({ ephemeral: true, disabledFastPaths: off });
      await engine.insertMany('a', rows);
      const out = await engine.aggregate('a', pipeline);
      await engine.close();
      return out.map((r) => r.id);
    }));
    // A descending sort compares an array by its largest element (https://www.mongodb.com/docs/manual/reference/method/cursor.sort/).
    expect(answers).toEqual([[2, 1], [2, 1]]);
  });

  it('the general path meters populate joins as the fast paths do: the same limit, the same error path', async () => {
    const engine = memoryEngine({ ephemeral: true });
    try {
      await engine.insertMany('a', [{ id: 1, author: 'x' }, { id: 2, author: 'y' }, { id: 3, author: 'none' }]);
      await engine.insertMany('au', [{ id: 1, documentId: 'x', cats: [] }, { id: 2, documentId: 'y', cats: ['c'] }]);
      await engine.insertMany('c', [{ id: 1, documentId: 'c' }]);
      const nested = [{ $lookup: { from: 'au', localField: 'author', foreignField: 'documentId', as: 'author', pipeline: [
        { $lookup: { from: 'c', localField: 'cats', foreignField: 'documentId', pipeline: [], as: 'cats' } },
      ] } }];
      const over = await aggregateVariants(engine, 'a', nested, { maxJoinedRows: 1 }, FAST_PATH_VARIANTS);
      expect(differences('a', nested, FAST_PATH_VARIANTS, over)).toEqual([]);
      expect(over[0]).toMatchObject({ limit: 'joinedRows', path: ['author', 'cats'] });
      // A count populate of empty relations joins nothing countable: its $count gives no document.
      const counted = [{ $lookup: { from: 'c', localField: 'author', foreignField: 'documentId', pipeline: [{ $count: 'count' }], as: 'tags' } }];
      const under = await aggregateVariants(engine, 'a', counted, { maxJoinedRows: 2 }, FAST_PATH_VARIANTS);
      expect(differences('a', counted, FAST_PATH_VARIANTS, under)).toEqual([]);
      expect((under[0] as Row[]).map((r) => r.tags)).toEqual([[], [], []]);
    } finally {
      await engine.close();
    }
  });

  it('a fast path made wrong on purpose is caught, by its own name and with every path off', async () => {
    const engine = memoryEngine({ ephemeral: true });
    const accepts = limit.accepts;
    (limit as { accepts: StagePath['accepts'] }).accepts = (stage, cx) => {
      const fn = accepts(stage, cx);
      return fn && ((rows, owned, vars) => {
        const out = fn(rows, owned, vars);
        return out && { rows: out.rows.slice(1), owned: out.owned };
      });
    };
    try {
      await engine.insertMany('a', [{ id: 1 }, { id: 2 }, { id: 3 }]);
      // The `$limit` after a `$project`: a leading one of a lookup's tail is cut by batched-tail, without the limit path.
      const pipeline = [{ $lookup: { from: 'a', localField: 'id', foreignField: 'id', pipeline: [{ $project: { id: 1 } }, { $limit: 1 }], as: 'j' } }];
      const results = await aggregateVariants(engine, 'a', pipeline, {}, FAST_PATH_VARIANTS);
      const offs = differences('a', pipeline, FAST_PATH_VARIANTS, results).map((d) => d.off.join(','));
      expect(offs).toContain('limit');
      expect(offs).toContain(FAST_PATH_VARIANTS.at(-1)!.join(','));
    } finally {
      (limit as { accepts: StagePath['accepts'] }).accepts = accepts;
      await engine.close();
    }
  });

  it('the blog API\'s reads reach every stage and pipeline fast path, and none changes an answer', async () => {
    const used = new Set<string>();
    const restore = [...STAGE_PATHS.map((p) => countStage(p, used)), ...PIPELINE_PATHS.map((p) => countPipeline(p, used))];
    const found: FastPathDifference[] = [];
    const engine = fastPathCheckedEngine(memoryEngine({ ephemeral: true }), found);
    const blog = await createBlogApp({ engine, strapiCompat: true });
    try {
      await blog.started;
      for (const url of READS) {
        const res = await request(blog.app).get(url).set('Authorization', `Bearer ${FULL_ACCESS}`);
        expect([url, res.status, res.status === 200 ? '' : JSON.stringify(res.body)]).toEqual([url, 200, '']);
      }
      // A cursor walk's second page (keyset-page: the range on the sort keys), which strict Strapi mode ignores.
      const cursorBlog = await createBlogApp({ engine, strapiCompat: false });
      try {
        await cursorBlog.started;
        const walk = '/api/articles?sort=title:asc&pagination[limit]=1&pagination[cursor]=';
        const first = await request(cursorBlog.app).get(walk).set('Authorization', `Bearer ${FULL_ACCESS}`);
        const next = (first.body as { meta: { pagination: { nextCursor: string | null } } }).meta.pagination.nextCursor;
        expect(next).toEqual(expect.any(String));
        const second = await request(cursorBlog.app).get(walk + encodeURIComponent(next!)).set('Authorization', `Bearer ${FULL_ACCESS}`);
        expect([second.status, (second.body as { data: unknown[] }).data.length]).toEqual([200, 1]);
      } finally {
        await cursorBlog.close();
      }
      // The join budget's count of a large fan-out (pipeline/compile-join-count), which the demo data never needs.
      await engine.insertMany('fp_a', [{ id: 1, ids: ['x', 'y'] }, { id: 2, ids: [] }, { id: 3, ids: 'x' }, { id: 4 }]);
      await engine.insertMany('fp_b', [{ id: 1, k: 'x' }, { id: 2, k: 'y' }, { id: 3, k: ['x', 'y'] }]);
      const lookup = { $lookup: { from: 'fp_b', localField: 'ids', foreignField: 'k', pipeline: [{ $project: { id: 1 } }], as: 'j' } };
      expect(await engine.aggregate('fp_a', [{ $match: {} }, lookup, { $project: { _id: 0, p: '$id', j: ['$j'] } }, { $unwind: { path: '$j', includeArrayIndex: 'n' } }, { $unwind: '$j' }, { $limit: 5 }])).toHaveLength(5);
      expect(found.map(describeDifference)).toEqual([]);
      expect([...STAGE_PATHS, ...PIPELINE_PATHS].map((p) => p.name).filter((name) => !used.has(name))).toEqual([]);
    } finally {
      for (const undo of restore) undo();
      await blog.close();
    }
  });
});

/** The blog model's full-access API token (examples/blog/model/permissions.json): every relation may be read. */
const FULL_ACCESS = 'oracle-full-access-token-7f3a9c1e5b2d4f6a8c0e1b3d5f7a9c2e';

/** Reads of the blog's demo data that, together, take every fast path. */
const READS = [
  '/api/articles',
  '/api/articles?populate=*&sort=title:desc&pagination[page]=2&pagination[pageSize]=2',
  '/api/articles?populate[author][populate]=*&populate[categories][fields][0]=name&populate[blocks][populate]=*&populate[seo][populate]=*',
  '/api/articles?filters[author][name][$containsi]=a&sort=author.name:asc',
  '/api/articles?filters[categories][name][$notNull]=true&sort[0]=publishedAt:desc',
  '/api/articles?locale=fr&populate[localizations][fields][0]=title&status=draft',
  '/api/articles?pagination[start]=1&pagination[limit]=2&populate[categories][sort]=name:desc&fields[0]=title',
  '/api/authors?populate[articles][count]=true&sort=name',
  '/api/global?populate=*',
  // Two to-many levels: the join budget counts them first (pipeline/compile-join-count: $unwind, lookups before a $limit).
  '/api/authors?populate[articles][populate][categories][populate][articles]=true',
  '/api/categories?populate[articles][populate][categories]=true&populate[articles][populate][author]=true',
  // A relation filter inside a populate, nested: semi-join-lookup (a lookup's sub-pipeline, not the top level).
  '/api/authors?populate[articles][filters][author][articles][categories][name][$notNull]=true',
];

/** Wraps a stage path so that it records its name each time it answers a stage; gives back the undo. */
function countStage(path: StagePath, used: Set<string>): () => void {
  const accepts = path.accepts;
  (path as { accepts: StagePath['accepts'] }).accepts = (stage, cx) => {
    const fn = accepts(stage, cx);
    return fn && ((rows: readonly Row[], owned, vars) => {
      const out = fn(rows, owned, vars);
      if (out) used.add(path.name);
      return out;
    });
  };
  return () => ((path as { accepts: StagePath['accepts'] }).accepts = accepts);
}

/** Wraps a pipeline path the same way. */
function countPipeline(path: PipelinePath, used: Set<string>): () => void {
  const accepts = path.accepts;
  (path as { accepts: PipelinePath['accepts'] }).accepts = (pipeline, at, cx) => {
    const step = accepts(pipeline, at, cx);
    return step && {
      next: step.next,
      run: (input, top) => {
        const out = step.run(input, top);
        if (out) used.add(path.name);
        return out;
      },
    };
  };
  return () => ((path as { accepts: PipelinePath['accepts'] }).accepts = accepts);
}
