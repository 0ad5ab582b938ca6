import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type express from 'express';
import sharp from 'sharp';
import request from 'supertest';
import type { ContentRouter } from '../../../lib';
import { createBlogApp } from '../../../examples/blog/app';
import { loadBlogModel } from '../../../examples/blog/model';
import { ARTICLES, AUTHORS, CATEGORIES, IMAGES, type ArticleSpec, type AuthorKey, type CategoryKey, type ImageKey } from './seed-data';
import { testEngine } from '../../helpers/test-engine';

type Json = Record<string, unknown>;

/** The seeded blog app and the identifiers the API gave to the data set. */
export interface QueryFixture {
  readonly app: express.Express;
  readonly router: ContentRouter;
  readonly authors: Readonly<Record<AuthorKey, string>>;
  readonly categories: Readonly<Record<CategoryKey, string>>;
  /** documentId by article key. */
  readonly articles: Readonly<Record<string, string>>;
  /** Upload file id by image key. */
  readonly images: Readonly<Record<ImageKey, number>>;
  /** GET as the full-access token; fails the test on any status but `status`. */
  get(url: string, status?: number): Promise<Json>;
  close(): Promise<void>;
}

const model = loadBlogModel();
const token = (type: string): string => model.permissions.apiTokens.find((t) => t.type === type)!.accessKey;
export const FULL_ACCESS = token('full-access');
export const READ_ONLY = token('read-only');

async function png(color: string): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: color } }).png().toBuffer();
}

function expectStatus(res: request.Response, status: number, what: string): Json {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
  return res.body as Json;
}

function paragraph(text: string): unknown[] {
  return [{ type: 'paragraph', children: [{ type: 'text', text }] }];
}

function articleData(a: ArticleSpec, ids: { authors: Record<string, string>; categories: Record<string, string>; images: Record<string, number> }): Json {
  const img = (k: ImageKey): number => ids.images[k]!;
  return {
    title: a.title,
    slug: a.key,
    description: a.description,
    content: a.contentText === null ? null : paragraph(a.contentText),
    views: a.views,
    rating: a.rating,
    featured: a.featured,
    publishDate: a.publishDate,
    author: a.author === null ? null : ids.authors[a.author],
    categories: a.categories.map((c) => ids.categories[c]),
    cover: a.cover === null ? null : img(a.cover),
    gallery: a.gallery.map(img),
    seo: a.seo === null ? null : { ...a.seo, shareImage: a.seo.shareImage === null ? null : img(a.seo.shareImage), socials: [...a.seo.socials] },
    blocks: a.blocks.map((b) => {
      if (b.__component === 'shared.media') return { ...b, file: img(b.file) };
      if (b.__component === 'shared.slider') return { ...b, files: b.files.map(img) };
      return b;
    }),
  };
}

/**
 * Builds the example blog app without its demo data and loads the data set of seed-data.ts through the REST
 * API with the full-access token: 4 uploaded PNGs, 4 authors, 9 categories (a 6-level parent chain), 30
 * articles (every field kind, components, dynamic zones, media, 4 fr localizations, drafts).
 *
 * @example
 * const fx = await seedQueryFixture();
 * const body = await fx.get('/api/articles?filters[views][$gt]=10');
 */
export async function seedQueryFixture(): Promise<QueryFixture> {
  const uploadsDir = mkdtempSync(path.join(os.tmpdir(), 'http-query-'));
  const { app, router, close } = await createBlogApp({ seed: false, uploadsDir, engine: testEngine() });
  const auth = { authorization: `Bearer ${FULL_ACCESS}` };
  const send = async (method: 'post' | 'put', url: string, data: Json): Promise<string> => {
    const body = expectStatus(await request(app)[method](url).set(auth).send({ data }), method === 'post' ? 201 : 200, `${method} ${url}`);
    return (body.data as Json).documentId as string;
  };
  const images = {} as Record<ImageKey, number>;
  for (const [key, color] of Object.entries(IMAGES) as [ImageKey, string][]) {
    const res = await request(app).post('/api/upload').set(auth).attach('files', await png(color), { filename: `${key}.png`, contentType: 'image/png' });
    images[key] = (expectStatus(res, 201, 'upload') as unknown as { id: number }[])[0]!.id;
  }
  const authors = {} as Record<AuthorKey, string>;
  for (const a of AUTHORS) authors[a.key] = await send('post', '/api/authors', { name: a.name, email: a.email, bio: a.bio, avatar: a.avatar === null ? null : images[a.avatar] });
  const categories = {} as Record<CategoryKey, string>;
  for (const c of CATEGORIES) {
    categories[c.key] = await send('post', '/api/categories', { name: c.name, slug: c.key, description: c.description, parent: c.parent === null ? null : categories[c.parent] });
  }
  const articles: Record<string, string> = {};
  const ids = { authors, categories, images };
  for (const a of ARTICLES) {
    articles[a.key] = await send('post', a.state === 'draft' ? '/api/articles?status=draft' : '/api/articles', articleData(a, ids));
  }
  for (const a of ARTICLES) {
    if (a.fr) await send('put', `/api/articles/${articles[a.key]}?locale=fr`, { ...a.fr, slug: a.key });
    if (a.state === 'edited') await send('put', `/api/articles/${articles[a.key]}?status=draft`, { title: `Draft of ${a.title}` });
  }
  const get = async (url: string, status = 200): Promise<Json> => expectStatus(await request(app).get(url).set(auth), status, `GET ${url}`);
  return {
    app, router, authors, categories, articles, images, get,
    close: async () => {
      await close();
      rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}

/** The `data` rows of a list response. */
export function rows(body: Json): Json[] {
  return body.data as Json[];
}

/** The slugs (article keys) of a list response, in response order. */
export function slugs(body: Json): string[] {
  return rows(body).map((r) => r.slug as string);
}
