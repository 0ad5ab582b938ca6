import { memoryEngine, ReadLimitError, type Engine, type Pipeline } from '../../../lib/engine';
import { indexesFor } from '../../../lib/engine/indexes';
import { countJoins, fanOutDepth, joinBound } from '../../../lib/documents/join-budget';
import { JOIN_STATISTICS_TTL_MS, maxFanOut, scopeCount } from '../../../lib/documents/join-statistics';
import { compileFind, compileFindRows, compileJoinCountPlan, compileJoinCountStep, joinCountRows, longestArray, mostReferrers } from '../../../lib/pipeline';
import { selectsOneRow } from '../../../lib/pipeline/compile-join-count';
import type { FilterNode, PopulateMap, PopulateNode, Query } from '../../../lib/query/types';
import { seedBlog } from '../../../bench/seed-blog';
import { article, author, category, pop, query, registry, where } from '../pipeline/fixtures';

/**
 * The join budget before the read (documents/join-budget): how deep the fan-out goes, the upper bound from row
 * counts, and the join count, which must count exactly what the embedded engine's row meter counts while the read
 * joins (the same reads refused, at the same budget).
 *
 * Data (bench/seed-blog): 300 articles (a draft and a published row each, 2 categories or 1 each), 20 authors,
 * 3 categories (category-1 .. 3, no parents), 10 files.
 */
const A = article.attributes;
const C = category.attributes;
const W = author.attributes;
const seo = registry.component('shared.seo').attributes;

let engine: Engine;
beforeAll(async () => {
  engine = memoryEngine({ ephemeral: true });
  await engine.init(indexesFor(registry));
  await seedBlog(engine, { articles: 300, authors: 20, categories: 3, files: 10 });
});
afterAll(() => engine.close());

type Budgeted = Query & { maxJoinedRows: number };
const on = (ct: typeof article, populate: PopulateMap, max = 10_000, over: Partial<Query> = {}): Budgeted => ({ ...query(ct, { populate, ...over }), maxJoinedRows: max });
const nest = (node: PopulateNode, populate: PopulateMap): PopulateNode => ({ ...node, populate });

const catArticles = { categories: nest(pop(A, 'categories'), { articles: pop(C, 'articles') }) };
const shapes: [string, typeof article, PopulateMap, number][] = [
  ['author.avatar', article, { author: nest(pop(A, 'author'), { avatar: pop(W, 'avatar') }) }, 0],
  ['seo.shareImage (a single component)', article, { seo: nest(pop(A, 'seo'), { shareImage: pop(seo, 'shareImage') }) }, 0],
  ['categories', article, { categories: pop(A, 'categories') }, 1],
  ['categories.parent.parent', article, { categories: nest(pop(A, 'categories'), { parent: nest(pop(C, 'parent'), { parent: pop(C, 'parent') }) }) }, 1],
  ['a count populate joins nothing counted', category, { articles: pop(C, 'articles', { count: true }) }, 0],
  ['categories.articles', article, catArticles, 2],
  ['author.articles.gallery', article, { author: nest(pop(A, 'author'), { articles: nest(pop(W, 'articles'), { gallery: pop(A, 'gallery') }) }) }, 2],
  ['localizations.categories', article, { localizations: nest(pop(A, 'localizations'), { categories: pop(A, 'categories') }) }, 2],
];

describe('fanOutDepth: the most joins that may fan out on one populate path', () => {
  it.each(shapes)('%s', (_name, ct, populate, depth) => {
    expect(fanOutDepth(compileJoinCountPlan(registry, ct, on(ct, populate)).nodes)).toBe(depth);
  });

  it('counts a to-one relation inside a repeatable component or a dynamic zone as fanning out', () => {
    const blocks = pop(A, 'blocks', { on: { 'shared.media': pop(A, 'blocks', { populate: { file: pop(registry.component('shared.media').attributes, 'file') } }) } });
    const plan = compileJoinCountPlan(registry, article, on(article, { blocks }));
    expect(plan.nodes.map((n) => [n.path.join('.'), n.one, n.collection])).toEqual([['blocks.file', false, 'files']]);
  });
});

/** What the data says: the most categories of an article, the most published articles of a category. */
async function most(): Promise<{ categories: number; articles: number }> {
  const rows = await engine.find('articles', {});
  const per = new Map<string, number>();
  for (const r of rows.filter((x) => x._status === 'published')) for (const c of r.categories as string[]) per.set(c, (per.get(c) ?? 0) + 1);
  return { categories: Math.max(...rows.map((r) => (r.categories as string[]).length)), articles: Math.max(...per.values()) };
}

describe('joinBound: an upper bound from row counts and fan-out statistics', () => {
  it('multiplies the rows by each join: 1 for a to-one join, else the largest fan-out there, at most its collection', async () => {
    const { categories, articles } = await most();
    expect(categories).toBe(2);
    expect(articles).toBeGreaterThan(150);
    const nodes = compileJoinCountPlan(registry, article, on(article, catArticles)).nodes;
    // 25 articles x 2 categories at most, each with its published articles (over 10,000: it stops there).
    expect(await joinBound(engine, nodes, 25, 10_000, true)).toBe(25 * categories + 25 * categories * articles);
    expect(await joinBound(engine, nodes, 1, 10_000, true)).toBe(categories + categories * articles);
    expect(await joinBound(engine, nodes, 1, 10_000, false)).toBe(3 + 3 * 300); // the rows in scope alone
    const chain = { author: nest(pop(A, 'author'), { avatar: pop(W, 'avatar') }) };
    expect(await joinBound(engine, compileJoinCountPlan(registry, article, on(article, chain)).nodes, 100, 10_000, true)).toBe(200);
  });

  it('uses the rows in scope alone when the statistic would read more rows than the budget, and caps each join at the budget + 1', async () => {
    // A budget of 200: the 300 published articles are not scanned; 3 categories, then 201 articles each at most.
    const nodes = compileJoinCountPlan(registry, article, on(article, catArticles, 200)).nodes;
    const before = engine.stats.aggregate;
    expect(await joinBound(engine, nodes, 1, 200, true)).toBe(3 + 3 * 201);
    expect(await maxFanOut(engine, nodes[0]!.children[0]!.fanOut!, 200)).toBeUndefined();
    expect(engine.stats.aggregate).toBe(before);
    expect(await joinBound(engine, compileJoinCountPlan(registry, article, on(article, catArticles, 50)).nodes, 1, 50, true)).toBe(3 + 3 * 51);
  });
});

describe('selectsOneRow: filters that keep one row of a locale and status', () => {
  const id = { type: 'scalar', field: 'id', attribute: { kind: 'scalar', type: 'integer', unique: false, system: true }, operator: '$eq', value: 3 } as unknown as FilterNode;
  const documentId = { ...id, field: 'documentId', value: 'x' } as FilterNode;
  const and = (...children: FilterNode[]): FilterNode => ({ type: 'and', children });
  it.each<[string, FilterNode | undefined, boolean]>([
    ['a uid $eq (slug)', where(A, 'slug', '$eq', 'home'), true],
    ['id $eq', id, true],
    ['documentId $eq, in a top-level $and', and(where(A, 'title', '$containsi', 'x'), documentId), true],
    ['a uid $ne', where(A, 'slug', '$ne', 'home'), false],
    ['a uid $eq null', where(A, 'slug', '$eq', null), false],
    ['a uid $eq under $or', { type: 'or', children: [where(A, 'slug', '$eq', 'a'), where(A, 'slug', '$eq', 'b')] }, false],
    ['a field that is not unique', where(A, 'title', '$eq', 'x'), false],
    ['no filters', undefined, false],
  ])('%s', (_name, filters, one) => {
    expect(selectsOneRow(filters)).toBe(one);
  });

  it('holds for a plan in one locale only', () => {
    expect(compileJoinCountPlan(registry, article, on(article, catArticles, 10_000, { filters: where(A, 'slug', '$eq', 'a') })).oneRow).toBe(true);
    expect(compileJoinCountPlan(registry, article, on(article, catArticles, 10_000, { filters: where(A, 'slug', '$eq', 'a'), locale: '*' })).oneRow).toBe(false);
  });
});

describe('the fan-out statistics', () => {
  it('give the longest relation array, and the most rows holding one key in a scope', async () => {
    const { categories, articles } = await most();
    expect(await engine.aggregate('articles', longestArray('articles', 'categories', {}).pipeline)).toEqual([{ m: categories }]);
    expect(await engine.aggregate('articles', longestArray('articles', 'categories', { _status: 'published' }).pipeline)).toEqual([{ m: categories }]);
    expect((await engine.aggregate('articles', mostReferrers('articles', 'categories', { _status: 'published' }).pipeline))[0]?.m).toBe(articles);
    expect((await engine.aggregate('articles', mostReferrers('articles', 'documentId', { _status: 'published' }).pipeline))[0]?.m).toBe(1);
    expect(await engine.aggregate('articles', mostReferrers('articles', 'categories', { _status: 'none' }).pipeline)).toEqual([]);
    const plan = compileJoinCountPlan(registry, article, on(article, { ...catArticles, localizations: pop(A, 'localizations'), author: pop(A, 'author') }));
    expect(plan.nodes.map((n) => n.fanOut)).toEqual([longestArray('articles', 'categories', { _status: 'published' }), mostReferrers('articles', 'documentId', { _status: 'published' }), undefined]);
    expect(plan.nodes[0]!.children[0]!.fanOut).toEqual(mostReferrers('articles', 'categories', { _status: 'published' }));
  });
});

/** The embedded engine's verdict on the read itself, its row meter counting the joins (no pre-count). */
async function readOver(ct: typeof article, q: Budgeted): Promise<boolean> {
  try {
    await engine.aggregate(ct.collectionName, compileFind(registry, ct, q), { maxJoinedRows: q.maxJoinedRows, readOnly: true });
    return false;
  } catch (error) {
    if (error instanceof ReadLimitError) return true;
    throw error;
  }
}

async function count(ct: typeof article, q: Budgeted): Promise<number> {
  return countJoins(engine, compileJoinCountPlan(registry, ct, q), compileFindRows(registry, ct, q, { one: false }), q.maxJoinedRows, true);
}

describe('countJoins: the rows the populate joins, counted before the read', () => {
  const filtered = { categories: nest(pop(A, 'categories'), { articles: pop(C, 'articles', { filters: where(A, 'featured', '$eq', true) }) }) };
  const counted: [string, typeof article, PopulateMap, Partial<Query>][] = [
    ['categories.articles, a page of 25', article, catArticles, {}],
    ['categories.articles, a page of 3', article, catArticles, { pagination: { kind: 'page', page: 2, pageSize: 3, withCount: true } }],
    ['categories.articles with a populate filter', article, filtered, {}],
    ['categories.articles.author.articles', article, { categories: nest(pop(A, 'categories'), { articles: nest(pop(C, 'articles'), { author: nest(pop(A, 'author'), { articles: pop(W, 'articles') }) }) }) }, { pagination: { kind: 'page', page: 1, pageSize: 1, withCount: true } }],
    ['author.articles.categories and seo.shareImage', article, { seo: nest(pop(A, 'seo'), { shareImage: pop(seo, 'shareImage') }), author: nest(pop(A, 'author'), { articles: nest(pop(W, 'articles'), { categories: pop(A, 'categories') }) }) }, {}],
    ['categories.articles of the drafts', category, { articles: nest(pop(C, 'articles'), { categories: pop(A, 'categories') }) }, { status: 'draft' }],
  ];

  it.each(counted)('%s: the total the row meter counts, refused at one less', async (_name, ct, populate, over) => {
    const big = on(ct, populate, 1_000_000, over);
    const total = await count(ct, big);
    expect(total).toBeGreaterThan(0);
    const at = on(ct, populate, total, over);
    const below = on(ct, populate, total - 1, over);
    expect(await count(ct, at)).toBe(total);
    await expect(count(ct, below)).rejects.toBeInstanceOf(ReadLimitError);
    expect(await readOver(ct, at)).toBe(false);
    expect(await readOver(ct, below)).toBe(true);
  });

  it('names the populate path of the join that goes over', async () => {
    const eight: PopulateMap = { categories: nest(pop(A, 'categories'), { articles: nest(pop(C, 'articles'), { categories: nest(pop(A, 'categories'), { articles: pop(C, 'articles') }) }) }) };
    await expect(count(article, on(article, eight))).rejects.toMatchObject({ limit: 'joinedRows', max: 10_000, path: ['categories', 'articles', 'categories'] });
    await expect(count(article, on(article, eight, 100))).rejects.toMatchObject({ max: 100, path: ['categories', 'articles'] });
  });

  it('asks the engine for at most budget + 1 - (rows counted so far) joined rows a step', async () => {
    const seen: { cap: unknown; rows: number }[] = [];
    const recording = new Proxy(engine, {
      get: (target, key) => (key !== 'aggregate' ? Reflect.get(target, key) : async (c: string, p: Pipeline, o: object) => {
        const rows = await target.aggregate(c, p, o);
        seen.push({ cap: p.at(-1)!.$limit, rows: rows.length });
        return rows;
      }),
    });
    const q = on(article, catArticles, 100);
    await expect(countJoins(recording, compileJoinCountPlan(registry, article, q), compileFindRows(registry, article, q, { one: false }), 100, true)).rejects.toBeInstanceOf(ReadLimitError);
    // The page's categories (25 articles, 1 or 2 each), then their articles: 900 of them, 101 - (the first step's) asked.
    expect(seen).toHaveLength(2);
    const first = seen[0]!.rows;
    expect(first).toBeGreaterThan(25);
    expect(seen).toEqual([{ cap: 101, rows: first }, { cap: 101 - first, rows: 101 - first }]);
  });
});

describe('compileJoinCountStep', () => {
  it('joins the parent rows, one { p, n, j: { id } } per joined row, at most `cap` in all', async () => {
    const plan = compileJoinCountPlan(registry, category, on(category, { articles: pop(C, 'articles'), parent: pop(C, 'parent') }));
    const step = compileJoinCountStep([joinCountRows([1, 2])], plan.nodes, 1000);
    expect(step).toEqual([
      { $match: { id: { $in: [1, 2] } } },
      { $lookup: { from: 'articles', localField: 'documentId', foreignField: 'categories', pipeline: [{ $match: { _status: 'published' } }, { $limit: 10_001 }, { $project: { id: 1 } }], as: '__j0' } },
      { $lookup: { from: 'categories', localField: 'parent', foreignField: 'documentId', pipeline: [{ $limit: 10_001 }, { $project: { id: 1 } }], as: '__j1' } },
      { $project: { _id: 0, p: '$id', j: ['$__j0', '$__j1'] } },
      { $unwind: { path: '$j', includeArrayIndex: 'n' } },
      { $unwind: '$j' },
      { $limit: 1000 },
    ]);
    const pairs = await engine.aggregate('categories', step);
    const of = async (documentId: string): Promise<number[]> => (await engine.find('articles', { _status: 'published', categories: documentId })).map((r) => r.id as number).sort((a, b) => a - b);
    const joined = (p: number): number[] => pairs.filter((x) => x.p === p && x.n === 0).map((x) => (x.j as { id: number }).id).sort((a, b) => a - b);
    expect(joined(1)).toEqual(await of('category-000001'));
    expect(joined(2)).toEqual(await of('category-000002'));
    expect(joined(1).length).toBeGreaterThan(50);
    expect(pairs.filter((x) => x.n === 1)).toEqual([]); // no parents: the first 10 categories have none
    expect(pairs.every((x) => Object.keys(x).sort().join() === 'j,n,p')).toBe(true);
    // The same rows on mingo, the reference: every stage of the step as MongoDB defines it.
    expect(await engine.aggregate('categories', compileJoinCountStep([joinCountRows([1, 2])], plan.nodes, 7))).toEqual(pairs.slice(0, 7));
  });
});

describe('scopeCount: the row counts the bound uses', () => {
  it('counts the rows of a scope once, until the engine writes or the time to live passes', async () => {
    const own = memoryEngine({ ephemeral: true });
    await own.init(indexesFor(registry));
    await seedBlog(own, { articles: 10, authors: 2, categories: 2, files: 1 });
    let now = 1_000;
    const clock = (): number => now;
    const asked = (): number => own.stats.find;
    const before = asked();
    expect(await scopeCount(own, 'articles', { _status: 'published' }, clock)).toBe(10);
    expect(await scopeCount(own, 'articles', { _status: 'draft' }, clock)).toBe(10);
    expect(await scopeCount(own, 'articles', { _status: 'published' }, clock)).toBe(10);
    expect(asked() - before).toBe(2);
    await own.insertMany('articles', [{ id: 100, documentId: 'x', locale: 'en', _status: 'published', categories: [] }]);
    expect(await scopeCount(own, 'articles', { _status: 'published' }, clock)).toBe(11); // a write makes it stale at once
    now += JOIN_STATISTICS_TTL_MS - 1;
    expect(await scopeCount(own, 'articles', { _status: 'published' }, clock)).toBe(11);
    expect(asked() - before).toBe(3);
    now += 1;
    expect(await scopeCount(own, 'articles', { _status: 'published' }, clock)).toBe(11); // asked again: written elsewhere?
    expect(asked() - before).toBe(4);
    await own.close();
  });
});
