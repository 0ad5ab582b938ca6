import { memoryEngine, type Engine, type Row } from '../../../lib/engine';
import { findMany, findOne } from '../../../lib/documents/read-documents';
import { parseQuery } from '../../../lib/query';
import { createRegistry } from '../../../lib/schema';
import { loadBlogModel } from '../../../examples/blog/model';
import { mutateDeep } from '../../helpers/mutate-deep';

/**
 * Documents are read with `aggregate(..., { readOnly: true })`: the engine may hand out stored objects, and the
 * formatter copies every value it keeps. Changing a formatted document must never change what is stored.
 */
describe('read-only aggregation + formatting', () => {
  const model = loadBlogModel();
  const registry = createRegistry({ contentTypes: model.contentTypes, components: model.components, i18n: { locales: model.permissions.locales.all, defaultLocale: model.permissions.locales.default } as never });
  const article = registry.contentType('api::article.article');
  let engine: Engine;

  beforeEach(async () => {
    engine = memoryEngine({ ephemeral: true });
    const content = [{ type: 'paragraph', children: [{ type: 'text', text: 'hi' }] }];
    await engine.insertMany('files', [{ id: 1, documentId: 'f1', name: 'a.png', url: '/a.png', formats: { small: { url: '/s.png' } } }]);
    await engine.insertMany('authors', [{ id: 1, documentId: 'a1', name: 'Ann', avatar: 1, createdAt: '2024-01-01T00:00:00.000Z' }]);
    await engine.insertMany('articles', [1, 2].map((id) => ({
      id, documentId: `d${id}`, _status: 'published', locale: 'en', title: `t${id}`, content, author: 'a1', cover: 1, gallery: [1, 1], categories: [],
      seo: { id: 1, metaTitle: 'm', shareImage: 1, socials: [{ id: 2, platform: 'x', url: 'u' }] },
      blocks: [{ __component: 'shared.media', id: 3, file: 1 }, { __component: 'shared.rich-text', id: 4, body: 'b' }],
    })));
  });
  afterEach(() => engine.close());

  const query = (rawQuery: string, action: 'find' | 'findOne') =>
    parseQuery({ registry, contentType: article, rawQuery, context: { canFind: () => true }, rest: { defaultLimit: 25, maxLimit: 100 }, action });


  it.each(['populate=*', 'populate[seo][populate]=*&populate[blocks][populate]=*&populate[author][populate]=*', 'fields[0]=title&populate[cover]=true'])('%s', async (raw) => {
    const list = await findMany(registry, engine, article, query(raw, 'find'), { _status: 'published', locale: 'en' });
    const before = JSON.stringify(list);
    expect(list.data).toHaveLength(2);
    mutateDeep(list.data);
    const one = await findOne(registry, engine, article, query(raw, 'findOne'), { documentId: 'd1', _status: 'published', locale: 'en' });
    const oneBefore = JSON.stringify(one);
    mutateDeep(one);
    expect(JSON.stringify(await findMany(registry, engine, article, query(raw, 'find'), { _status: 'published', locale: 'en' }))).toBe(before);
    expect(JSON.stringify(await findOne(registry, engine, article, query(raw, 'findOne'), { documentId: 'd1', _status: 'published', locale: 'en' }))).toBe(oneBefore);
    expect(JSON.stringify(await engine.find('articles', { id: 1 }))).not.toContain('mutated');
  });

  /** The JSON writer (lib/format storedJsonOf) keeps the text of stored objects by identity: writes must replace them. */
  it('writes never change a stored object in place', async () => {
    const read = async (): Promise<Row[]> => [
      ...(await engine.aggregate('files', [{ $match: {} }], { readOnly: true })),
      ...(await engine.aggregate('articles', [{ $match: {} }], { readOnly: true })),
    ];
    const nested = (await read()).flatMap((row) => Object.values(row).filter((v): v is object => v !== null && typeof v === 'object'));
    const before = nested.map((v) => JSON.stringify(v));
    await engine.updateMany('files', { id: 1 }, { $set: { 'formats.small.url': '/t.png', 'formats.large': { url: '/l.png' } } });
    await engine.updateMany('articles', { id: 1 }, { $set: { 'seo.metaTitle': 'n', 'seo.socials.0.url': 'v', 'blocks.1.body': 'c' }, $push: { gallery: 2 } } as never);
    await engine.updateMany('articles', { id: 2 }, { $unset: { 'seo.socials': '' }, $pull: { gallery: 1 } } as never);
    await engine.replaceOne('articles', { id: 1 }, { id: 1, documentId: 'd1', title: 'new' });
    await engine.deleteMany('files', { id: 1 });
    expect(nested.map((v) => JSON.stringify(v))).toEqual(before);
    expect(JSON.stringify(await engine.find('articles', { id: 2 }))).not.toContain('socials');
  });
});
