import request from 'supertest';
import type { JsonBytes, Selection } from '../../../lib/format';
import type { Registry } from '../../../lib/schema';
import { runConformance } from '../../helpers/conformance/run-conformance';
import { FULL_ACCESS, seedQueryFixture, type QueryFixture } from '../../http/query/seed';

type Row = Record<string, unknown>;

/** Every row the HTTP layer writes with compileDocumentBytes is also formatted and stringified, and compared. */
const seen = { rows: 0, mismatches: [] as string[] };

jest.mock('../../../lib/format/compile-document-json', () => {
  const actual = jest.requireActual<typeof import('../../../lib/format/compile-document-json')>('../../../lib/format/compile-document-json');
  const { formatDocument } = jest.requireActual<typeof import('../../../lib/format/format-document')>('../../../lib/format/format-document');
  return {
    ...actual,
    compileDocumentBytes(registry: Registry, uid: string, selection: Selection) {
      const fast = actual.compileDocumentBytes(registry, uid, selection);
      return (row: Row, out: JsonBytes) => {
        const start = out.length;
        fast(row, out);
        const bytes = Buffer.from(out.since(start));
        const expected = Buffer.from(JSON.stringify(formatDocument(registry, uid, row, selection)), 'utf8');
        seen.rows += 1;
        if (!bytes.equals(expected)) seen.mismatches.push(`${uid}\n  fast: ${bytes.toString()}\n  want: ${expected.toString()}`);
      };
    },
  };
});

/** The list shapes of the HTTP query suites (__tests__/http/query), on the types they use. */
const LISTS = [
  '/api/articles',
  '/api/articles?populate=*&pagination[pageSize]=100',
  '/api/articles?populate=*&status=draft&pagination[pageSize]=100',
  '/api/articles?populate=*&locale=*&pagination[pageSize]=100',
  '/api/articles?populate=*&locale=fr',
  '/api/articles?fields=title&populate=localizations&locale=fr',
  '/api/articles?populate[localizations][fields][0]=title&populate[localizations][fields][1]=locale',
  '/api/articles?fields[0]=slug&populate[author][fields][0]=name&populate[categories][fields]=slug',
  '/api/articles?populate=seo.socials',
  '/api/articles?populate[0]=seo.socials&populate[1]=seo.shareImage',
  '/api/articles?populate[blocks][on][shared.quote][fields][0]=title',
  '/api/articles?populate[blocks][on][shared.slider][populate][files][fields][0]=name&populate[blocks][on][shared.rich-text]=true',
  '/api/articles?populate[blocks][populate]=*',
  '/api/articles?populate[categories][count]=true&populate[gallery][count]=true',
  '/api/articles?populate[categories][fields][0]=name&populate[categories][sort]=name:desc&populate[categories][filters][name][$ne]=Web&populate[categories][populate][parent][fields][0]=slug',
  '/api/articles?populate[categories][populate][children][populate][articles][populate][author][populate][articles][populate][categories][fields]=slug',
  '/api/articles?populate[seo][fields][0]=metaTitle&populate[seo][populate][shareImage][fields][0]=name',
  '/api/articles?populate[author][populate][avatar]=true&populate[categories][populate][parent][populate][parent]=true',
  '/api/articles?pagination[start]=5&pagination[limit]=3',
  '/api/articles?pagination[page]=3&pagination[pageSize]=10&pagination[withCount]=false',
  '/api/authors?populate[articles][fields]=slug&populate[avatar][fields]=name&sort=name',
  '/api/authors?fields=name&populate[articles][count]=true',
  '/api/authors?populate=*',
  '/api/categories?filters[parent][id][$null]=true&populate[children][fields]=slug&populate[articles][fields]=slug',
  '/api/categories?populate[articles][count]=true&populate[articles][filters][featured]=true',
  '/api/categories?populate=*',
];

/** The query strings of the findOne cases (on articles; on authors with every relation renamed `articles`). */
const ONE_DOCUMENT_QUERIES = [
  '',
  'populate=*',
  'populate=*&status=draft',
  'populate=*&locale=fr',
  'fields=title&populate=localizations&locale=fr',
  'fields[0]=slug&populate[author][fields][0]=name&populate[categories][fields]=slug',
  'populate[categories][count]=true',
  'populate[author][populate][avatar]=true&populate[categories][populate][parent][populate][parent]=true',
  'populate[blocks][populate]=*&populate[seo][populate]=*',
];

/**
 * Gets `url` as the full-access token twice: as the routes write it (compileDocumentBytes), then formatted and
 * sent by res.json (an identity `json replacer` makes the routes do so, as before); same status 200, bytes and
 * representation headers, and every row written checked against JSON.stringify(formatDocument(row)).
 */
async function expectWrittenAsFormatted(fx: QueryFixture, url: string): Promise<void> {
  seen.rows = 0;
  seen.mismatches = [];
  const get = () => request(fx.app).get(url).set('authorization', `Bearer ${FULL_ACCESS}`);
  const fast = await get();
  fx.app.set('json replacer', (_key: string, value: unknown) => value);
  let slow: request.Response;
  try {
    slow = await get();
  } finally {
    fx.app.set('json replacer', undefined);
  }
  expect([url, fast.status]).toEqual([url, 200]);
  expect(seen.rows).toBeGreaterThan(0);
  expect(seen.mismatches).toEqual([]);
  expect(fast.text).toBe(slow.text);
  for (const header of ['content-type', 'content-length', 'etag']) expect([header, fast.headers[header]]).toEqual([header, slow.headers[header]]);
}

describe('answers written by compileDocumentBytes', () => {
  let fx: QueryFixture;
  beforeAll(async () => {
    fx = await seedQueryFixture();
  }, 60_000);
  afterAll(async () => {
    await fx.close();
  });
  beforeEach(() => {
    seen.rows = 0;
    seen.mismatches = [];
  });

  it.each(LISTS)('gives the bytes and headers of res.json(formatted documents): %s', async (url) => {
    await expectWrittenAsFormatted(fx, url);
  });

  // One document (findOne) is written from its stored row too: `{"data":<document>,"meta":{}}`.
  it.each(ONE_DOCUMENT_QUERIES)('gives the bytes and headers of res.json(the formatted document) for findOne?%s', async (query) => {
    // a01 and a02 have French localizations, a07 null fields, a27 a draft that differs.
    for (const key of query.includes('locale=fr') ? ['a01', 'a02'] : ['a01', 'a02', 'a07', 'a27']) await expectWrittenAsFormatted(fx, `/api/articles/${fx.articles[key]}?${query}`);
  });

  it.each(['', 'populate=*', 'fields=name&populate[articles][fields]=title&populate[articles][populate][categories]=true', 'populate[articles][count]=true'])(
    'gives the bytes and headers of res.json(the formatted document) for an author?%s',
    async (query) => {
      await expectWrittenAsFormatted(fx, `/api/authors/${fx.authors.ann}?${query}`);
    },
  );

  it('answers HEAD and If-None-Match as Express does', async () => {
    const url = '/api/articles?populate=*';
    const auth = `Bearer ${FULL_ACCESS}`;
    const first = await request(fx.app).get(url).set('authorization', auth);
    const head = await request(fx.app).head(url).set('authorization', auth);
    expect([head.status, head.headers.etag, head.headers['content-length'], head.text]).toEqual([200, first.headers.etag, first.headers['content-length'], undefined]);
    const cached = await request(fx.app).get(url).set('authorization', auth).set('if-none-match', first.headers.etag as string);
    expect([cached.status, cached.text]).toEqual([304, '']);
  });
});

describe('the conformance corpus, with lists written by compileDocumentBytes', () => {
  it('writes every row as JSON.stringify(formatDocument(row))', async () => {
    seen.rows = 0;
    seen.mismatches = [];
    await runConformance();
    expect(seen.rows).toBeGreaterThan(100);
    expect(seen.mismatches).toEqual([]);
  }, 180_000);
});
