import type { Engine } from '../lib';

type Row = Record<string, unknown>;

/** How many documents of each type the bench stores. */
export interface SeedSizes {
  articles: number;
  authors: number;
  categories: number;
  files: number;
}

/** What the scenarios need to know about the seeded data. */
export interface SeededData {
  /** documentId of an article in the middle of the list (for findOne). */
  middleArticle: string;
}

const STAMP = '2026-01-01T00:00:00.000Z';

/** A deterministic documentId per type and number (any string is a valid documentId, docs/storage-model.md). */
export const docId = (prefix: string, n: number): string => `${prefix}-${n.toString(36).padStart(6, '0')}`;

/** A small deterministic pseudo-random generator (mulberry32), so both sizes see the same shape of data. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const base = (id: number, documentId: string, locale: string | null, status: 'draft' | 'published'): Row => ({
  id,
  documentId,
  locale,
  createdAt: STAMP,
  updatedAt: STAMP,
  _status: status,
  publishedAt: status === 'published' ? STAMP : null,
});

function file(n: number): Row {
  const hash = `image_${n}_0123456789`;
  const format = (name: string, width: number) => ({
    name: `${name}_image-${n}.png`, hash: `${name}_${hash}`, ext: '.png', mime: 'image/png', path: null,
    width, height: Math.round(width / 1.5), size: 1.5, sizeInBytes: 1500, url: `/uploads/${name}_${hash}.png`,
  });
  return {
    ...base(n, docId('file', n), null, 'published'),
    name: `image-${n}.png`, alternativeText: null, caption: null, focalPoint: null, width: 1200, height: 800,
    formats: { thumbnail: format('thumbnail', 234), small: format('small', 500) },
    hash, ext: '.png', mime: 'image/png', size: 1.05, url: `/uploads/${hash}.png`, provider: 'local',
    provider_metadata: null, previewUrl: null,
  };
}

function article(n: number, id: number, status: 'draft' | 'published', sizes: SeedSizes, rnd: () => number): Row {
  const author = docId('author', 1 + Math.floor(rnd() * sizes.authors));
  const categories = [docId('category', 1 + Math.floor(rnd() * sizes.categories)), docId('category', 1 + Math.floor(rnd() * sizes.categories))];
  const cover = 1 + Math.floor(rnd() * sizes.files);
  return {
    ...base(id, docId('article', n), 'en', status),
    title: `Article ${n} ${Math.floor(rnd() * 1e6).toString(36)}`,
    slug: `article-${n}`,
    description: `The description of article ${n}, a sentence of ordinary length.`,
    content: null,
    views: Math.floor(rnd() * 10000),
    rating: null,
    featured: n % 7 === 0,
    publishDate: '2026-02-01',
    cover,
    gallery: [cover],
    author,
    categories: categories[0] === categories[1] ? [categories[0]] : categories,
    seo: { id, metaTitle: `Article ${n}`, metaDescription: 'SEO description', shareImage: cover, socials: [] },
    blocks: [
      { id, __component: 'shared.rich-text', body: `# Article ${n}\n\nSome **rich** text.` },
      { id, __component: 'shared.quote', title: 'Quote', body: 'A short quote.' },
    ],
  };
}

async function insertChunked(engine: Engine, collection: string, rows: Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 10_000) await engine.insertMany(collection, rows.slice(i, i + 10_000));
}

/**
 * Stores the blog model's rows straight through the engine, in the layout of docs/storage-model.md: files,
 * authors (avatar), categories (a parent chain), and articles with a draft and a published row each (English),
 * author, two categories, cover, gallery, an `seo` component and two dynamic zone items. Counters are advanced
 * so later writes get fresh ids.
 *
 * @example
 * await seedBlog(router.engine, { articles: 1000, authors: 10000, categories: 1000, files: 100 });
 */
export async function seedBlog(engine: Engine, sizes: SeedSizes): Promise<SeededData> {
  const rnd = random(42);
  const files = Array.from({ length: sizes.files }, (_, i) => file(i + 1));
  const authors = Array.from({ length: sizes.authors }, (_, i) => ({
    ...base(i + 1, docId('author', i + 1), null, 'published'),
    name: `Author ${i + 1}`, email: `author${i + 1}@example.com`, avatar: 1 + (i % sizes.files), bio: 'Writes things.', internalNote: null,
  }));
  const categories = Array.from({ length: sizes.categories }, (_, i) => ({
    ...base(i + 1, docId('category', i + 1), null, 'published'),
    name: `Category ${i + 1}`, slug: `category-${i + 1}`, description: null,
    parent: i < 10 ? null : docId('category', 1 + Math.floor(rnd() * i)),
  }));
  const articles: Row[] = [];
  for (let n = 1; n <= sizes.articles; n++) {
    const draft = article(n, 2 * n - 1, 'draft', sizes, rnd);
    articles.push(draft, { ...draft, ...base(2 * n, draft.documentId as string, 'en', 'published'), seo: { ...(draft.seo as Row), id: 2 * n } });
  }
  await insertChunked(engine, 'files', files);
  await insertChunked(engine, 'authors', authors);
  await insertChunked(engine, 'categories', categories);
  await insertChunked(engine, 'articles', articles);
  for (const [name, count] of [['files', files.length], ['authors', authors.length], ['categories', categories.length], ['articles', articles.length]] as const) {
    await engine.nextId(name, count);
  }
  return { middleArticle: docId('article', Math.ceil(sizes.articles / 2)) };
}
