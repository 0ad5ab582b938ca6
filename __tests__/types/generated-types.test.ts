import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import sharp from 'sharp';
import request from 'supertest';
import { createContentRouter, generateTypes, memoryEngine, type ContentRouter } from '../../lib';
import { createBlogApp } from '../../examples/blog/app';
import { loadBlogModel } from '../../examples/blog/model';
import { everyActionPublic } from '../helpers/every-action';
import { testEngine } from '../helpers/test-engine';
import { everyTypeSchemas } from '../unit/schema/every-type';
import { GENERATED, writeGenerated } from './generated-fixtures';
import { typeErrors } from './type-check';
import type { ThingInput } from './generated/every-type';
import { thingReads, typedReads } from './typed-parameters';
import { typedUsage } from './usage';

/**
 * The generated declarations are true: the committed ones (generated/*.d.ts, which `npm run typecheck` checks
 * usage.ts against) are what the generator writes today, and real answers of the API (REST, @strapi/client,
 * the Document Service), written as TypeScript literals of the generated types, compile: an extra key, a
 * missing one or a value of another type is a type error.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const client = require('@strapi/client') as typeof import('@strapi/client/dist/exports');

if (process.env.UPDATE_GENERATED_TYPES === '1') writeGenerated();

it.each(GENERATED.map((g) => [g.file.split('/').pop()!, g] as const))('generated/%s is what generateTypes writes for its model', (_name, g) => {
  expect(fs.readFileSync(g.file, 'utf8')).toBe(generateTypes(g.options()));
});

/** Type errors of `export const value: <type> = <json>;` for each answer. */
function literalErrors(from: string, answers: readonly (readonly [type: string, value: unknown])[]): string[] {
  const types = [...new Set(answers.map(([t]) => t.replace(/\[\]$/, '')))];
  const lines = [`import type { ${types.join(', ')} } from './generated/${from}';`];
  answers.forEach(([type, value], i) => lines.push(`export const value${i}: ${type} = ${JSON.stringify(value, null, 2)};`));
  return typeErrors({ 'answers.ts': lines.join('\n') });
}

const png = () => sharp({ create: { width: 2, height: 2, channels: 3, background: '#3b82f6' } }).png().toBuffer();

describe('the every-type model', () => {
  let router: ContentRouter;
  let app: express.Express;
  const populate = { cover: true, photos: true, owner: true, friends: true, part: { populate: '*' }, parts: { populate: '*' }, zone: { populate: '*' }, localizations: true };

  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'cr-types-'));
  afterAll(() => fs.rmSync(uploads, { recursive: true, force: true }));

  beforeAll(async () => {
    const auth = everyActionPublic(everyTypeSchemas().contentTypes);
    router = createContentRouter({ ...everyTypeSchemas(), engine: memoryEngine({ ephemeral: true }), auth, i18n: { locales: ['en', 'fr'] }, upload: { directory: uploads } });
    app = express().use('/api', router);
    const up = await request(app).post('/api/upload').attach('files', await png(), { filename: 'a.png', contentType: 'image/png' });
    expect(up.status).toBe(201);
    const file = (up.body as { id: number }[])[0]!.id;
    const person = await router.documents('api::person.person').create({ data: { name: 'Ada' } });
    const part = { label: 'p', qty: 2, picture: file, person: person.documentId };
    const data: ThingInput = {
      name: 'Thing', code: 'ABC', text: 't', rich: '# r', content: [{ type: 'paragraph', children: [{ type: 'text', text: 'x' }] }],
      email: 'a@b.co', secret: 'hidden', slug: 'thing', count: 3, big: '9007199254740993', ratio: 0.75, price: 12.5, flag: true,
      day: '2024-01-02', at: '10:11:12', when: '2024-01-02T03:04:05.000Z', stamp: '2024-01-02T03:04:05.000Z', meta: { a: [1, null] }, size: 'm',
      cover: file, photos: [file], owner: person.documentId, friends: [person.documentId], part, parts: [part, part],
      zone: [{ __component: 'parts.part', ...part }, { __component: 'parts.note', body: 'n', day: '2024-01-03' }],
    };
    const thing = await router.documents('api::thing.thing').create({ data, status: 'published' });
    await router.documents('api::thing.thing').create({ data: { name: 'Empty' } }); // a draft with nothing set
    await router.documents('api::thing.thing').update({ documentId: thing.documentId, locale: 'fr', data: { ...data, name: 'Chose' } });
  });

  it('REST answers, every field populated or empty, are values of the generated types', async () => {
    const res = await request(app).get('/api/things').query({ populate, status: 'draft' });
    expect(res.status).toBe(200);
    const things = res.body.data as Record<string, unknown>[];
    const full = things.find((t) => t.name === 'Thing')!;
    // Not vacuous: every kind of attribute is in the answer.
    expect(full).toEqual(expect.objectContaining({ big: '9007199254740993', price: 12.5, cover: expect.any(Object), owner: expect.any(Object), localizations: [expect.any(Object)] }));
    expect((full.zone as unknown[]).length).toBe(2);
    expect(things.some((t) => t.name === 'Empty')).toBe(true);
    // UploadFile is a populated media's shape (the /upload routes' answers add `isUrlSigned`).
    expect(literalErrors('every-type', [['Thing[]', things]])).toEqual([]);
  });

  it('a wrong answer is a type error (the check can fail)', async () => {
    const one = (await request(app).get('/api/things').query({ populate })).body.data[0] as Record<string, unknown>;
    const errors = literalErrors('every-type', [['Thing', { ...one, extra: 1 }], ['Thing', { ...one, price: '12.5' }], ['Thing', { ...one, documentId: undefined }]]);
    expect(errors).toEqual([expect.stringMatching(/extra\W+does not exist/), expect.stringMatching(/price|not assignable/), expect.stringMatching(/documentId|not assignable/)]);
  });

  it('typed parameters (enumerations, components, dynamic zones) are accepted at run time (typed-parameters.ts, run)', async () => {
    const things = await thingReads(router);
    expect(things.map((t) => t.name)).toEqual(['Thing']);
    expect(things[0]!.zone?.length).toBe(2);
  });

  it('Document Service answers are values of the generated types', async () => {
    const docs = await router.documents('api::thing.thing').findMany({ populate, locale: '*' } as never);
    expect(docs.length).toBeGreaterThan(1);
    expect(literalErrors('every-type', [['Thing[]', docs]])).toEqual([]);
  });
});

describe('the blog model (the example app, seeded)', () => {
  let server: Server;
  let close: () => Promise<void>;
  let router: ContentRouter;
  let baseURL: string;

  beforeAll(async () => {
    const blog = await createBlogApp({ engine: testEngine() });
    ({ close, router } = blog);
    server = blog.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await close();
  });

  it('@strapi/client answers of every content type are values of the generated types', async () => {
    const token = loadBlogModel().permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;
    const sdk = client.strapi({ baseURL, auth: token });
    const deep = { populate: { cover: true, gallery: true, author: { populate: '*' }, categories: true, seo: { populate: '*' }, blocks: { populate: '*' } } };
    const answers: [string, unknown][] = [
      ['Article[]', (await sdk.collection('articles').find(deep)).data],
      ['Article[]', (await sdk.collection('articles').find()).data],
      ['Author[]', (await sdk.collection('authors').find({ populate: '*' })).data],
      ['Category[]', (await sdk.collection('categories').find({ populate: '*' })).data],
      ['About', (await sdk.single('about').find({ populate: { blocks: { populate: '*' } } })).data],
      ['Global', (await sdk.single('global').find({ populate: '*' })).data],
    ];
    // Populate pagination through @strapi/client (its qs encoding passes the keys on): a page and meta.<rel>.count.
    const paged = (await sdk.collection('categories').find({ populate: { articles: { limit: 1, withCount: true } } } as never)).data as unknown as { articles: unknown[]; meta: { articles: { count: number } } }[];
    expect(paged.length).toBeGreaterThan(0);
    expect(paged.every((c) => c.articles.length <= 1 && c.meta.articles.count >= c.articles.length)).toBe(true);
    answers.push(['Category[]', paged]);
    expect((answers[0]![1] as unknown[]).length).toBeGreaterThan(0);
    expect(literalErrors('blog', answers)).toEqual([]);
  });

  it('typed parameters, every operator and populate form, are accepted at run time (typed-parameters.ts, run)', async () => {
    const [list, all, deep, one, published] = await typedReads(router);
    expect(list).toBeGreaterThan(0);
    expect(all).toBeGreaterThan(0);
    expect(deep).toBe(all);
    expect(one).toBe(1);
    expect(published).toBeGreaterThan(0);
  });

  it('router.documents() is typed by the generated ContentTypes map (usage.ts, run)', async () => {
    const read = await typedUsage(router);
    expect(read.titles.length).toBeGreaterThan(0);
    expect(read.authorNames.length).toBeGreaterThan(0);
  });
});
