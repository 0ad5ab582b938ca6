import request from 'supertest';
import { createBlogApp } from '../../../examples/blog/app';
import { loadBlogModel } from '../../../examples/blog/model';
import { testEngine } from '../../helpers/test-engine';

const DRAFT_TITLE = 'A draft nobody sees';
const tokens = loadBlogModel().permissions.apiTokens;
const key = (type: string): string => tokens.find((t) => t.type === type)!.accessKey;

type BlogApp = Awaited<ReturnType<typeof createBlogApp>>;

/** Anonymous `GET /api/articles?status=draft` on the example app, started with `start`. */
async function anonymousDraftList(start: () => Promise<BlogApp>): Promise<request.Response> {
  const blog = await start();
  try {
    return await request(blog.app).get('/api/articles?status=draft&fields[0]=title');
  } finally {
    await blog.close();
  }
}

describe('the example app (configured as in production) keeps its draft to itself', () => {
  const saved = process.env.STRAPI_COMPAT;
  afterEach(() => {
    if (saved === undefined) delete process.env.STRAPI_COMPAT;
    else process.env.STRAPI_COMPAT = saved;
  });

  it('anonymous ?status=draft is 403; its API tokens read the draft', async () => {
    delete process.env.STRAPI_COMPAT;
    const blog = await createBlogApp({ engine: testEngine() });
    try {
      const res = await request(blog.app).get('/api/articles?status=draft');
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain(DRAFT_TITLE);
      for (const type of ['read-only', 'full-access']) {
        const withToken = await request(blog.app).get('/api/articles?status=draft&fields[0]=title').set('authorization', `Bearer ${key(type)}`);
        expect(withToken.status).toBe(200);
        expect(JSON.stringify(withToken.body)).toContain(DRAFT_TITLE);
      }
    } finally {
      await blog.close();
    }
  });

  it('STRAPI_COMPAT=1 in the environment gives Strapi 5 behaviour: the public reads the draft', async () => {
    process.env.STRAPI_COMPAT = '1';
    const res = await anonymousDraftList(() => createBlogApp({ engine: testEngine() }));
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain(DRAFT_TITLE);
  });

  it('STRAPI_COMPAT other than 1 does not', async () => {
    process.env.STRAPI_COMPAT = 'true';
    expect((await anonymousDraftList(() => createBlogApp({ engine: testEngine() }))).status).toBe(403);
  });

  it('the strapiCompat option wins over the environment', async () => {
    process.env.STRAPI_COMPAT = '1';
    expect((await anonymousDraftList(() => createBlogApp({ engine: testEngine(), strapiCompat: false }))).status).toBe(403);
    delete process.env.STRAPI_COMPAT;
    expect((await anonymousDraftList(() => createBlogApp({ engine: testEngine(), strapiCompat: true }))).status).toBe(200);
  });
});
