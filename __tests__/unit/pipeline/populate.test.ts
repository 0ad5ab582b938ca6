import type { Engine, Row } from '../../../lib/engine';
import { compileFind, compileFindOne } from '../../../lib/pipeline';
import type { PopulateMap, Query } from '../../../lib/query/types';
import type { ContentType } from '../../../lib/schema';
import { article, asc, author, category, pop, query, registry, run, runPage, seededEngine } from './fixtures';

const A = article.attributes;
const seoAttrs = registry.component('shared.seo').attributes;

let engine: Engine;
beforeAll(async () => {
  engine = await seededEngine();
});

async function one(ct: ContentType, documentId: string, populate: PopulateMap, over: Partial<Query> = {}): Promise<Row> {
  const [row] = await run(engine, ct, compileFindOne(registry, ct, query(ct, { populate, ...over }), { documentId }));
  return row!;
}
const ids = (rows: unknown): unknown[] => (rows as Row[]).map((r) => r.id);

describe('populate (run on the memory engine)', () => {
  it('to-one relation: the target row; null without one', async () => {
    expect((await one(article, 'a1', { author: pop(A, 'author') })).author).toMatchObject({ documentId: 'ann', name: 'Ann Archer' });
    expect((await one(article, 'a3', { author: pop(A, 'author') })).author).toBeNull();
  });

  it('to-many relation keeps relation order; a populate sort overrides it', async () => {
    expect(ids((await one(article, 'a1', { categories: pop(A, 'categories') })).categories)).toEqual([3, 1]);
    expect(ids((await one(article, 'a1', { categories: pop(A, 'categories', { sort: [asc('name')] }) })).categories)).toEqual([1, 3]);
    expect((await one(article, 'a3', { categories: pop(A, 'categories') })).categories).toEqual([]);
  });

  it('populate filters, fields and count', async () => {
    const cats = (await one(article, 'a1', { categories: pop(A, 'categories', { fields: ['name'], filters: { type: 'scalar', field: 'name', attribute: category.attributes.name as never, operator: '$eq', value: 'Tech' } }) })).categories as Row[];
    expect(cats).toHaveLength(1);
    expect(Object.keys(cats[0]!).sort()).toEqual(['_id', '_status', 'documentId', 'id', 'locale', 'name', 'publishedAt']);
    expect((await one(article, 'a1', { categories: pop(A, 'categories', { count: true }) })).categories).toEqual({ count: 2 });
    expect((await one(article, 'a3', { categories: pop(A, 'categories', { count: true }) })).categories).toEqual({ count: 0 });
  });

  it('media single and multiple (stored order), null and []', async () => {
    const a1 = await one(article, 'a1', { cover: pop(A, 'cover'), gallery: pop(A, 'gallery') });
    expect(a1.cover).toMatchObject({ id: 2, name: 'b.png' });
    expect(ids(a1.gallery)).toEqual([3, 1]);
    const a2 = await one(article, 'a2', { cover: pop(A, 'cover'), gallery: pop(A, 'gallery') });
    expect(a2.cover).toBeNull();
    expect(a2.gallery).toEqual([]);
  });

  it('components: media and nested components populated in place; null component stays null', async () => {
    const a1 = await one(article, 'a1', { seo: pop(A, 'seo', { populate: { shareImage: pop(seoAttrs, 'shareImage'), socials: pop(seoAttrs, 'socials') } }) });
    expect(a1.seo).toMatchObject({ id: 1, metaTitle: 'Alpha SEO', shareImage: { id: 1, name: 'a.png' }, socials: [{ network: 'twitter' }, { network: 'linkedin' }] });
    expect((await one(article, 'a2', { seo: pop(A, 'seo', { populate: { shareImage: pop(seoAttrs, 'shareImage') } }) })).seo).toBeNull();
    expect((await one(article, 'a1', { seo: pop(A, 'seo') })).seo).toMatchObject({ shareImage: 1 });
  });

  it('dynamic zone: `on` keeps the listed components, each populated per its node', async () => {
    const media = registry.component('shared.media').attributes;
    const slider = registry.component('shared.slider').attributes;
    const a1 = await one(article, 'a1', { blocks: { ...pop(A, 'blocks'), on: { 'shared.media': pop(media, 'file', { attribute: A.blocks as never, populate: { file: pop(media, 'file') } }), 'shared.slider': { ...pop(slider, 'files'), attribute: A.blocks as never, populate: { files: pop(slider, 'files') } } } } });
    const blocks = a1.blocks as Row[];
    expect(blocks.map((b) => b.__component)).toEqual(['shared.media', 'shared.slider']);
    expect(blocks[0]!.file).toMatchObject({ id: 3 });
    expect(ids(blocks[1]!.files)).toEqual([2, 1]);
    const all = await one(article, 'a1', { blocks: pop(A, 'blocks') });
    expect((all.blocks as Row[]).map((b) => b.__component)).toEqual(['shared.media', 'shared.quote', 'shared.slider']);
  });

  it('localizations: the same document in the other locales, same status', async () => {
    const a1 = await one(article, 'a1', { localizations: pop(A, 'localizations', { fields: ['title'] }) });
    expect((a1.localizations as Row[]).map((r) => [r.locale, r.title])).toEqual([['fr', 'Alpha fr']]);
  });

  it('mappedBy side: published owner rows of every locale, by id', async () => {
    expect(ids((await one(author, 'ann', { articles: pop(author.attributes, 'articles') })).articles)).toEqual([2]);
    expect(ids((await one(author, 'bob', { articles: pop(author.attributes, 'articles') })).articles)).toEqual([3, 4]);
    expect(ids((await one(category, 'tech', { articles: pop(category.attributes, 'articles'), children: pop(category.attributes, 'children') })).children)).toEqual([2, 3]);
    expect((await one(category, 'tech', { parent: pop(category.attributes, 'parent') })).parent).toBeNull();
  });

  it('draft reads resolve relations from the draft row', async () => {
    const a1 = await one(article, 'a1', { author: pop(A, 'author'), categories: pop(A, 'categories') }, { status: 'draft' });
    expect(a1.title).toBe('Alpha draft');
    expect((a1.author as Row).documentId).toBe('bob');
    expect(a1.categories).toEqual([]);
  });

  it('locale reads resolve relations from that locale row', async () => {
    const fr = await one(article, 'a1', { categories: pop(A, 'categories') }, { locale: 'fr' });
    expect(ids(fr.categories)).toEqual([2]);
  });

  it('populates 6 levels deep in one aggregate', async () => {
    const C = category.attributes;
    const populate: PopulateMap = {
      author: pop(A, 'author', { populate: { articles: pop(author.attributes, 'articles', { populate: { categories: pop(A, 'categories', { populate: { parent: pop(C, 'parent', { populate: { children: pop(C, 'children', { populate: { articles: pop(C, 'articles', { fields: ['title'] }) } }) } }) } }) } }) } }),
    };
    const a2 = await one(article, 'a2', populate);
    const level2 = ((a2.author as Row).articles as Row[]).map((r) => r.title);
    expect(level2).toEqual(['Alpha fr', 'beta 50%']);
    const parent = (((a2.author as Row).articles as Row[])[1]!.categories as Row[])[0]!.parent as Row;
    expect(parent.documentId).toBe('tech');
    const children = parent.children as Row[];
    expect(children.map((c) => c.name)).toEqual(['Sci', 'Web']);
    expect((children[0]!.articles as Row[]).map((r) => r.title)).toEqual(['Alpha fr', 'beta 50%']);
    expect((children[1]!.articles as Row[]).map((r) => r.title)).toEqual(['Alpha']);
  });

  it('populates on list pages only', async () => {
    const q = query(article, { populate: { author: pop(A, 'author') }, pagination: { kind: 'page', page: 1, pageSize: 2, withCount: true } });
    const page = await runPage(engine, article, q, compileFind(registry, article, q));
    expect(page.data.map((r) => (r.author as Row | null)?.name)).toEqual(['Ann Archer', 'Bob Brown']);
    expect(page.total).toBe(3);
  });
});
