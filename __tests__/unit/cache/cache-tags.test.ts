import { answerDocumentIds, queryTypes } from '../../../lib/cache/answer-tags';
import { cacheTagSettings, documentTag, formatTagHeader, typeTag } from '../../../lib/cache/cache-tags';
import { answerTags } from '../../../lib/http/cache-tags-middleware';
import { createContentRouter, memoryEngine } from '../../../lib';
import { parseQuery } from '../../../lib/query/parse-query';
import { loadBlogModel } from '../../../examples/blog/model';
import { loadBlogRegistry } from '../../helpers/blog-registry';

const registry = loadBlogRegistry();
const rest = { defaultLimit: 25, maxLimit: 100, maxDepth: 10 };
const all = { canFind: () => true };
const query = (uid: string, rawQuery: string) => parseQuery({ registry, contentType: registry.contentType(uid), rawQuery, context: all, rest, action: 'find' });

describe('tags', () => {
  test.each([
    ['019a3c1e-77aa-7c3e-9f1a-2b8a0e4f6d11', 'd:019a3c1e-77aa-7c3e-9f1a-2b8a0e4f6d11'],
    ['abc_DEF.1~x', 'd:abc_DEF.1~x'],
  ])('a safe documentId is its own tag: %s', (id, tag) => {
    expect(documentTag(id)).toBe(tag);
  });

  test.each([
    ['a b'], ['x\r\nSet-Cookie: a=b'], ['a,b'], ['"quoted"'], ['é'], ['~looks-hashed'], ['x'.repeat(101)], [''],
  ])('an unsafe documentId is hashed into a safe tag: %j', (id) => {
    const tag = documentTag(id);
    expect(tag).toMatch(/^d:~[A-Za-z0-9_-]{16}$/);
    expect(documentTag(id)).toBe(tag); // stable: the purge names the same tag
  });

  test('type tags and prefixes', () => {
    expect(typeTag('api::article.article')).toBe('t:api::article.article');
    expect(typeTag('plugin::upload.file', 'blog:')).toBe('blog:t:plugin::upload.file');
    expect(documentTag('a', 'blog:')).toBe('blog:d:a');
  });

  test.each([
    ['xkey', 't:x d:a d:b'],
    ['Surrogate-Key', 't:x d:a d:b'],
    ['Cache-Tag', 't:x,d:a,d:b'],
  ] as const)('%s separates tags as its CDN reads them', (header, value) => {
    expect(formatTagHeader(cacheTagSettings({ header }), ['t:x'], new Set(['d:a', 'd:b']), [])).toBe(value);
  });

  test('too many documents, or too many bytes, collapse to the type tags', () => {
    const docs = new Set(Array.from({ length: 5 }, (_, i) => `d:${i}`));
    expect(formatTagHeader(cacheTagSettings({ header: 'xkey', maxDocuments: 5 }), ['t:x'], docs, ['t:y'])).toBe('t:x d:0 d:1 d:2 d:3 d:4');
    expect(formatTagHeader(cacheTagSettings({ header: 'xkey', maxDocuments: 4 }), ['t:x'], docs, ['t:x', 't:y'])).toBe('t:x t:y');
    expect(formatTagHeader(cacheTagSettings({ header: 'xkey', maxHeaderBytes: 256 }), [], new Set(Array.from({ length: 30 }, (_, i) => `d:${'a'.repeat(10)}${i}`)), ['t:y'])).toBe('t:y');
  });
});

describe('answerDocumentIds', () => {
  test('every documentId key at any depth, v5 and v4 shapes', () => {
    expect(answerDocumentIds('{"data":[{"id":1,"documentId":"a","author":{"id":2,"documentId":"b","avatar":{"documentId":"c"}}}]}')).toEqual(new Set(['a', 'b', 'c']));
    expect(answerDocumentIds(Buffer.from('{"data":{"id":1,"documentId":"a","attributes":{"author":{"data":{"id":2,"documentId":"b"}}}}}'))).toEqual(new Set(['a', 'b']));
  });

  test('a documentId written inside a string value is not a key', () => {
    const body = JSON.stringify({ data: { documentId: 'a', title: '"documentId":"evil"' } });
    expect(answerDocumentIds(body)).toEqual(new Set(['a']));
  });

  test('an escaped value is read as JSON, then tagged safely', () => {
    const body = JSON.stringify({ data: { documentId: 'a"b\r\nX-Injected: 1' } });
    const [id] = answerDocumentIds(body);
    expect(id).toBe('a"b\r\nX-Injected: 1');
    expect(documentTag(id!)).toMatch(/^d:~[A-Za-z0-9_-]{16}$/);
  });
});

describe('queryTypes: the types that select an answer\'s documents without being shown', () => {
  test.each([
    ['', [], ['api::article.article']],
    ['populate=author', [], ['api::article.article', 'api::author.author']],
    ['filters[author][name][$eq]=Ann', ['api::author.author'], ['api::article.article']],
    ['sort=author.name', ['api::author.author'], ['api::article.article']],
    ['filters[categories][parent][name][$eq]=x', ['api::category.category'], ['api::article.article']],
    ['populate[categories][filters][name][$eq]=x', ['api::category.category'], ['api::article.article', 'api::category.category']],
    ['populate[author][populate][avatar]=true', [], ['api::article.article', 'api::author.author', 'plugin::upload.file']],
    ['populate[seo][populate][shareImage]=true', [], ['api::article.article', 'plugin::upload.file']],
  ])('articles?%s', (raw, selecting, shown) => {
    const types = queryTypes(registry, 'api::article.article', query('api::article.article', raw));
    expect([...types.selecting].sort()).toEqual(selecting);
    expect([...types.shown].sort()).toEqual(shown);
  });

  test('a counted populate selects its target', () => {
    const types = queryTypes(registry, 'api::author.author', query('api::author.author', 'populate[articles][count]=true'));
    expect([...types.selecting]).toEqual(['api::article.article']);
  });
});

describe('answerTags', () => {
  const settings = cacheTagSettings({ header: 'xkey', maxDocuments: 2 });
  const list = { uid: 'api::article.article', route: 'find' as const, query: query('api::article.article', 'populate=author&filters[categories][name][$eq]=x') };

  test('a list: its type, the selecting types, its documents', () => {
    expect(answerTags(registry, settings, list, 200, '{"data":[{"documentId":"a","author":{"documentId":"b"}}]}')).toBe('t:api::article.article t:api::category.category d:a d:b');
  });

  test('collapsed: the types it may show stand for its documents', () => {
    expect(answerTags(registry, settings, list, 200, '{"data":[{"documentId":"a"},{"documentId":"c","author":{"documentId":"b"}}]}')).toBe('t:api::article.article t:api::category.category t:api::author.author');
  });

  test('a findOne carries no type tag; its 404 carries the document asked for', () => {
    const one = { uid: 'api::article.article', route: 'findOne' as const, documentId: 'x y', query: query('api::article.article', '') };
    expect(answerTags(registry, settings, one, 200, '{"data":{"documentId":"a"}}')).toBe('d:a');
    expect(answerTags(registry, settings, one, 404, '{"data":null}')).toBe(documentTag('x y'));
    expect(answerTags(registry, settings, { uid: 'plugin::upload.file', route: 'findOne', documentId: '7' }, 404, '{}')).toBe('t:plugin::upload.file');
    expect(answerTags(registry, settings, one, 400, '{}')).toBeUndefined();
  });
});

describe('the cacheTags option', () => {
  const model = loadBlogModel();
  test.each([
    [{ header: 'X-Tags' }, /cacheTags/],
    [{ header: 'xkey', maxDocuments: -1 }, /maxDocuments/],
    [{ header: 'xkey', prefix: 'a b' }, /prefix/],
    [{ header: 'xkey', purgeHeaders: { Authorization: 'Bearer x\r\nX-Evil: 1' } }, /purgeHeaders/],
    [{ header: 'xkey', purgeUrl: 'ftp://cdn' }, /purgeUrl/],
    [{ header: 'xkey', maxDocs: 3 }, /maxDocs/],
  ])('%j is refused at start-up', (cacheTags, message) => {
    expect(() => createContentRouter({ contentTypes: model.contentTypes, components: model.components, engine: memoryEngine({ ephemeral: true }), logger: false, cacheTags: cacheTags as never })).toThrow(message);
  });

  test("router.on('cache.purge') needs the option", () => {
    const router = createContentRouter({ contentTypes: model.contentTypes, components: model.components, engine: memoryEngine({ ephemeral: true }), logger: false });
    expect(() => router.on('cache.purge', () => undefined)).toThrow(/cacheTags/);
  });
});
