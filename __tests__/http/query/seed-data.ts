/**
 * The deterministic data set of the HTTP query tests, as plain values: the seed (seed.ts) writes it through
 * the REST API and the tests compute expected rows from it with plain JavaScript predicates (an oracle that
 * shares no code with the library).
 */

export type AuthorKey = 'ann' | 'zoe' | 'bob' | 'emile';
export type CategoryKey = 'tech' | 'web' | 'frontend' | 'frameworks' | 'react' | 'hooks' | 'science' | 'physics' | 'lifestyle';
export type ImageKey = 'red' | 'green' | 'blue' | 'yellow';
export type Network = 'twitter' | 'facebook' | 'linkedin';

export interface AuthorSpec {
  readonly key: AuthorKey;
  readonly name: string;
  readonly email: string;
  readonly bio: string | null;
  readonly avatar: ImageKey | null;
}

export interface CategorySpec {
  readonly key: CategoryKey;
  readonly name: string;
  readonly parent: CategoryKey | null;
  readonly description: string | null;
}

export interface SeoSpec {
  readonly metaTitle: string;
  readonly metaDescription: string | null;
  readonly shareImage: ImageKey | null;
  readonly socials: readonly { readonly network: Network; readonly url: string }[];
}

export type BlockSpec =
  | { readonly __component: 'shared.quote'; readonly title: string; readonly body: string }
  | { readonly __component: 'shared.rich-text'; readonly body: string }
  | { readonly __component: 'shared.media'; readonly file: ImageKey }
  | { readonly __component: 'shared.slider'; readonly files: readonly ImageKey[] };

export interface ArticleSpec {
  /** Also the slug. */
  readonly key: string;
  readonly index: number;
  readonly title: string;
  readonly description: string | null;
  /** The text of the one paragraph of `content` (blocks), null for no content. */
  readonly contentText: string | null;
  readonly views: number;
  readonly rating: number | null;
  readonly featured: boolean;
  readonly publishDate: string | null;
  readonly author: AuthorKey | null;
  readonly categories: readonly CategoryKey[];
  readonly cover: ImageKey | null;
  readonly gallery: readonly ImageKey[];
  readonly seo: SeoSpec | null;
  readonly blocks: readonly BlockSpec[];
  /** A French localization (title, description), published. */
  readonly fr: { readonly title: string; readonly description: string } | null;
  /** `draft`: never published; `edited`: published, then its draft changed (`draftTitle`). */
  readonly state: 'published' | 'draft' | 'edited';
}

export const IMAGES: Readonly<Record<ImageKey, string>> = { red: '#ff0000', green: '#00ff00', blue: '#0000ff', yellow: '#ffff00' };

/** Binary order of names: 'Ann Archer' < 'Zoe Zhang' < 'bob brown' < 'Émile Roy'. */
export const AUTHORS: readonly AuthorSpec[] = [
  { key: 'ann', name: 'Ann Archer', email: 'ann@example.com', bio: 'Writes about the web.', avatar: 'red' },
  { key: 'zoe', name: 'Zoe Zhang', email: 'zoe@example.com', bio: 'Physics and 100% science_fiction.', avatar: 'blue' },
  { key: 'bob', name: 'bob brown', email: 'bob@example.com', bio: null, avatar: null },
  { key: 'emile', name: 'Émile Roy', email: 'emile@example.com', bio: 'Écrit en français.', avatar: null },
];

/** tech > web > frontend > frameworks > react > hooks (6 levels); science > physics; lifestyle. */
export const CATEGORIES: readonly CategorySpec[] = [
  { key: 'tech', name: 'Technology', parent: null, description: 'All things tech' },
  { key: 'web', name: 'Web', parent: 'tech', description: null },
  { key: 'frontend', name: 'Frontend', parent: 'web', description: 'Browsers' },
  { key: 'frameworks', name: 'Frameworks', parent: 'frontend', description: null },
  { key: 'react', name: 'React', parent: 'frameworks', description: 'A library' },
  { key: 'hooks', name: 'Hooks', parent: 'react', description: null },
  { key: 'science', name: 'Science', parent: null, description: 'Nature' },
  { key: 'physics', name: 'Physics', parent: 'science', description: null },
  { key: 'lifestyle', name: 'Lifestyle', parent: null, description: null },
];

/** Titles that exercise text operators: case, `%`, `_`, regex metacharacters, non-ASCII. */
const TITLES: Readonly<Record<number, string>> = {
  1: 'Hello World',
  2: 'hello world',
  3: '100% Pure',
  4: 'snake_case Guide',
  5: 'Regex a.b*c (x)[y]',
  6: 'Über Straße',
  7: 'Zebra crossing',
  8: 'Tag aXbYc',
  9: 'Percent 100 pure',
  10: 'snakeXcase trap',
};

const CATEGORY_CYCLE: readonly (readonly CategoryKey[])[] = [
  ['tech'], ['web', 'science'], ['hooks'], [], ['react', 'physics'], ['frontend'], ['lifestyle', 'tech'], ['physics'], ['frameworks', 'web', 'lifestyle'],
];
const AUTHOR_CYCLE: readonly (AuthorKey | null)[] = ['ann', 'zoe', 'bob', 'emile', null];
const NETWORKS: readonly (readonly Network[])[] = [['twitter'], ['facebook', 'linkedin'], [], ['linkedin']];
const IMAGE_KEYS: readonly ImageKey[] = ['red', 'green', 'blue', 'yellow'];

const pad = (n: number): string => String(n).padStart(2, '0');

function day(i: number): string {
  const d = new Date(Date.UTC(2025, 0, 1) + i * 11 * 86_400_000);
  return d.toISOString().slice(0, 10);
}

function seo(i: number): SeoSpec | null {
  if (i % 2 === 1) return null;
  const networks = NETWORKS[(i / 2) % NETWORKS.length]!;
  return {
    metaTitle: `Meta ${pad(i)}`,
    metaDescription: i % 3 === 0 ? null : `About article ${i}`,
    shareImage: i % 4 === 0 ? IMAGE_KEYS[(i / 4) % 4]! : null,
    socials: networks.map((network) => ({ network, url: `https://${network}.example/${i}` })),
  };
}

function blocks(i: number): BlockSpec[] {
  switch (i % 4) {
    case 0: return [{ __component: 'shared.quote', title: `Quote ${i}`, body: 'Wise words' }, { __component: 'shared.media', file: 'green' }];
    case 1: return [{ __component: 'shared.rich-text', body: `# Part ${i}` }];
    case 2: return [{ __component: 'shared.slider', files: ['blue', 'red'] }, { __component: 'shared.quote', title: `Q${i}`, body: 'Short' }];
    default: return [];
  }
}

function article(i: number): ArticleSpec {
  return {
    key: `a${pad(i)}`,
    index: i,
    title: TITLES[i] ?? `Article ${pad(i)}`,
    description: i % 7 === 0 ? null : i === 11 ? 'costs 50% off_peak' : `Description of article ${i}`,
    contentText: i % 3 === 0 ? `Heading ${i % 9} here` : null,
    views: (i % 7) * 10,
    rating: i % 5 === 0 ? null : (i % 9) + 0.25,
    featured: i % 3 === 0,
    publishDate: i % 6 === 0 ? null : day(i),
    author: AUTHOR_CYCLE[i % AUTHOR_CYCLE.length]!,
    categories: CATEGORY_CYCLE[i % CATEGORY_CYCLE.length]!,
    cover: i % 3 === 1 ? IMAGE_KEYS[i % 4]! : null,
    gallery: i % 5 === 2 ? [IMAGE_KEYS[(i + 1) % 4]!, IMAGE_KEYS[i % 4]!] : [],
    seo: seo(i),
    blocks: blocks(i),
    fr: [1, 2, 3, 12].includes(i) ? { title: `FR ${TITLES[i] ?? `Article ${pad(i)}`}`, description: `Description en français ${i}` } : null,
    state: i >= 29 ? 'draft' : i === 27 ? 'edited' : 'published',
  };
}

/** 30 articles: a01..a28 published (a27 with a different draft), a29 and a30 drafts only. */
export const ARTICLES: readonly ArticleSpec[] = Array.from({ length: 30 }, (_, k) => article(k + 1));

/** The published articles in default order (row id: creation order). */
export const PUBLISHED: readonly ArticleSpec[] = ARTICLES.filter((a) => a.state !== 'draft');

/** The keys of the published articles matching `predicate`, in default order. */
export function published(predicate: (a: ArticleSpec) => boolean): string[] {
  return PUBLISHED.filter(predicate).map((a) => a.key);
}

export const authorOf = (key: AuthorKey): AuthorSpec => AUTHORS.find((a) => a.key === key)!;
export const categoryOf = (key: CategoryKey): CategorySpec => CATEGORIES.find((c) => c.key === key)!;

/** The ancestors of a category, nearest first. */
export function ancestors(key: CategoryKey): CategoryKey[] {
  const out: CategoryKey[] = [];
  for (let p = categoryOf(key).parent; p; p = categoryOf(p).parent) out.push(p);
  return out;
}
