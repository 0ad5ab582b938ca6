import { mediaPaths, mimeAllowed, removeFileFromRow } from '../../../lib/media';
import { loadBlogRegistry } from '../../helpers/blog-registry';

const registry = loadBlogRegistry();
const article = registry.contentType('api::article.article');

describe('mediaPaths', () => {
  test('finds media at the top level, in components and in dynamic zones', () => {
    expect(mediaPaths(registry, article.attributes).sort()).toEqual(['blocks.file', 'blocks.files', 'cover', 'gallery', 'seo.shareImage'].sort());
  });

  test('types without media have none', () => {
    expect(mediaPaths(registry, registry.contentType('api::category.category').attributes)).toEqual([]);
  });
});

describe('removeFileFromRow', () => {
  const row = () => ({
    id: 1,
    cover: 7,
    gallery: [3, 7, 9],
    seo: { id: 1, metaTitle: 't', shareImage: 7 },
    blocks: [
      { id: 1, __component: 'shared.media', file: 7 },
      { id: 2, __component: 'shared.slider', files: [7, 8] },
      { id: 3, __component: 'shared.quote', title: 'q' },
      { id: 4, __component: 'shared.media', file: 8 },
    ],
  });

  test('removes the id everywhere, keeping order and other ids', () => {
    const r = row();
    expect(removeFileFromRow(registry, article.attributes, r, 7)).toBe(true);
    expect(r).toEqual({
      id: 1,
      cover: null,
      gallery: [3, 9],
      seo: { id: 1, metaTitle: 't', shareImage: null },
      blocks: [
        { id: 1, __component: 'shared.media', file: null },
        { id: 2, __component: 'shared.slider', files: [8] },
        { id: 3, __component: 'shared.quote', title: 'q' },
        { id: 4, __component: 'shared.media', file: 8 },
      ],
    });
  });

  test('answers false and changes nothing when the file is not referenced', () => {
    const r = row();
    expect(removeFileFromRow(registry, article.attributes, r, 42)).toBe(false);
    expect(r).toEqual(row());
  });

  test('ignores attributes that are not media even when they hold the same number', () => {
    const r = { id: 7, views: 7, cover: 5 };
    expect(removeFileFromRow(registry, article.attributes, r, 7)).toBe(false);
    expect(r).toEqual({ id: 7, views: 7, cover: 5 });
  });
});

describe('mimeAllowed', () => {
  test.each([
    ['image/png', ['images'], true],
    ['text/plain', ['images'], false],
    ['text/plain', ['images', 'files'], true],
    ['image/png', ['files'], false],
    ['video/mp4', ['videos'], true],
    ['audio/mpeg', ['images', 'videos'], false],
    ['application/pdf', null, true],
  ] as const)('%s in %j -> %s', (mime, allowed, expected) => {
    expect(mimeAllowed(mime, allowed)).toBe(expected);
  });
});
