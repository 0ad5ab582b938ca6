/** One hostile request of `npm run bench:attack`. */
export interface AttackShape {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT';
  /** Path and query string, from `/api`. */
  readonly path: string;
  /** A JSON body (sent with the full-access token). */
  readonly body?: () => string;
  /** Sent with the full-access API token (writes); else as the Public role. */
  readonly token?: boolean;
}

const chain = (levels: number, first: string, second: string): string[] => Array.from({ length: levels }, (_, i) => (i % 2 === 0 ? first : second));

/** `populate[a][populate][b]...=true` (bracket form). */
export function bracketPopulate(path: readonly string[], leaf = 'true'): string {
  return `populate${path.map((p, i) => (i === 0 ? `[${p}]` : `[populate][${p}]`)).join('')}=${leaf}`;
}

/** `populate[a][populate]=*` at every level below the path (`*` at the deepest one). */
function starEveryLevel(path: readonly string[]): string {
  return `${bracketPopulate(path).replace(/=true$/, '')}[populate]=*`;
}

const list = (param: string, n: number, value: (i: number) => string): string =>
  Array.from({ length: n }, (_, i) => `${param}[${i}]=${encodeURIComponent(value(i))}`).join('&');

/** Nested JSON `{ a: { a: ... } }` `depth` levels deep, as text (built without recursion). */
function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

const M2M = chain(8, 'categories', 'articles');

const SORT_KEYS = ['author.name:desc', 'categories.name', 'author.email', 'categories.slug:desc', 'title', 'slug:desc', 'views', 'description',
  'publishDate:desc', 'createdAt', 'updatedAt:desc', 'rating', 'featured:desc', 'documentId', 'author.bio', 'categories.description'];

/**
 * The worst shapes we could think of (issue 11, "One request must never take the server down"), each sent alone.
 * Query strings stay under Node's default 16 KiB header limit; bodies under the router's default 1 MB.
 */
export const ATTACK_SHAPES: readonly AttackShape[] = [
  { name: 'm2m chain 8 levels (bracket)', method: 'GET', path: `/api/articles?${bracketPopulate(M2M)}` },
  { name: 'm2m chain 10 levels (bracket)', method: 'GET', path: `/api/articles?${bracketPopulate(chain(10, 'categories', 'articles'))}` },
  { name: 'm2m chain 8 levels (list form)', method: 'GET', path: `/api/articles?populate[0]=${M2M.join('.')}` },
  { name: 'm2m chain 8 levels, pageSize 100', method: 'GET', path: `/api/articles?${bracketPopulate(M2M)}&pagination[pageSize]=100` },
  { name: 'author<->articles chain 8 levels', method: 'GET', token: true, path: `/api/authors?${bracketPopulate(chain(8, 'articles', 'author'))}&pagination[pageSize]=100` },
  { name: 'category children/parent chain 10', method: 'GET', path: `/api/categories?${bracketPopulate(chain(10, 'children', 'parent'))}&pagination[pageSize]=100` },
  { name: 'populate=* at every level (8)', method: 'GET', path: `/api/articles?${starEveryLevel(chain(7, 'categories', 'articles'))}&pagination[pageSize]=100` },
  {
    name: 'filters+sort at every level (6)',
    method: 'GET',
    token: true,
    path: `/api/articles?pagination[pageSize]=100&populate[categories][filters][name][$containsi]=a&populate[categories][sort]=name:desc`
      + '&populate[categories][populate][articles][filters][title][$containsi]=e&populate[categories][populate][articles][sort]=title'
      + '&populate[categories][populate][articles][populate][categories][populate][articles][populate][author][populate][articles][filters][title][$notContainsi]=zzz',
  },
  { name: 'populate=* pageSize 100', method: 'GET', path: '/api/articles?populate=*&pagination[pageSize]=100' },
  { name: 'pageSize 100 with count, start 1e9', method: 'GET', path: '/api/articles?pagination[start]=1000000000&pagination[limit]=100' },
  { name: '$in with 450 values', method: 'GET', path: `/api/articles?${list('filters[title][$in]', 450, (i) => `A${i}`)}` },
  { name: '$notIn with 400 values', method: 'GET', path: `/api/articles?${list('filters[title][$notIn]', 400, (i) => `A${i}`)}&pagination[pageSize]=100` },
  { name: 'relation $in 300 values', method: 'GET', path: `/api/articles?${list('filters[categories][name][$in]', 300, (i) => `C${i}`)}` },
  { name: 'relation filter scan ($containsi)', method: 'GET', token: true, path: '/api/articles?filters[author][name][$containsi]=9&filters[categories][name][$notContainsi]=zz&pagination[pageSize]=100' },
  { name: 'relation filter chain, 1 author<->articles pair', method: 'GET', token: true, path: `/api/articles?filters${'[author][articles]'.repeat(1)}[author][name][$eq]=x` },
  { name: 'relation filter chain, 5 author<->articles pairs', method: 'GET', token: true, path: `/api/articles?filters${'[author][articles]'.repeat(5)}[author][name][$eq]=x` },
  { name: 'populate filter chain, 4 articles<->author pairs', method: 'GET', token: true, path: `/api/authors?populate[articles][filters]${'[author][articles]'.repeat(4)}[title][$eq]=x&pagination[pageSize]=100` },
  { name: 'relation sort, pageSize 100', method: 'GET', token: true, path: '/api/articles?sort[0]=author.name:desc&sort[1]=categories.name&pagination[pageSize]=100' },
  { name: '$containsi 12 KB operand', method: 'GET', path: `/api/articles?filters[title][$containsi]=${'ab'.repeat(6000)}` },
  { name: '$or of 20 $containsi (the most allowed)', method: 'GET', path: `/api/articles?${list('filters[$or]', 20, () => 'x').replace(/\]=x/g, '][description][$containsi]=zq')}` },
  { name: '$or of 300 $containsi', method: 'GET', path: `/api/articles?${list('filters[$or]', 300, () => 'x').replace(/\]=x/g, '][title][$containsi]=zq')}` },
  { name: 'many sort keys, relations included', method: 'GET', token: true, path: `/api/articles?${list('sort', SORT_KEYS.length, (i) => SORT_KEYS[i]!)}&pagination[pageSize]=100` },
  { name: 'deep filters $and/$or nesting', method: 'GET', path: `/api/articles?filters${'[$and][0]'.repeat(9)}[title][$null]=false` },
  {
    name: 'POST 5000 relation ids',
    method: 'POST',
    path: '/api/articles',
    token: true,
    body: () => JSON.stringify({ data: { title: 'x', slug: `attack-${Date.now()}`, categories: { connect: Array.from({ length: 5000 }, (_, i) => `category-${i.toString(36).padStart(6, '0')}`) } } }),
  },
  {
    name: 'POST 1000 existing relation ids (100,000 articles data)',
    method: 'POST',
    path: '/api/articles',
    token: true,
    body: () => JSON.stringify({ data: { title: 'x', slug: `attack-ok-${Date.now()}`, categories: Array.from({ length: 1000 }, (_, i) => `category-${(i + 1).toString(36).padStart(6, '0')}`) } }),
  },
  {
    name: 'POST deep JSON (5000 levels)',
    method: 'POST',
    path: '/api/articles',
    token: true,
    body: () => `{"data":{"title":"x","content":${deepJson(5000)}}}`,
  },
  {
    name: 'POST 900 KB body',
    method: 'POST',
    path: '/api/articles',
    token: true,
    body: () => JSON.stringify({ data: { title: 'x', description: 'y'.repeat(900_000) } }),
  },
];
