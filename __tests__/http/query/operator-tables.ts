/**
 * The operator tables of the HTTP query tests: each case is a query on the seeded articles (seed-data.ts) and the
 * predicate that says which published articles it must answer. filters-scalar.test.ts runs them on `/api/articles`;
 * files-queries.test.ts runs the same cases on `/api/upload/files` (over files made from the same articles), so
 * every operator is shown to answer alike on a content type and on the media library.
 */
import type { ArticleSpec } from './seed-data';

export type Case = readonly [query: string, expected: (a: ArticleSpec) => boolean];

const e = encodeURIComponent;
const lower = (s: string | null): string => (s ?? '').toLowerCase();

/** Every operator on a string (`title`): text operators ignore ASCII case, `$eq`/`$ne` do not. */
export const STRING_OPERATORS: readonly Case[] = [
  [`filters[title][$eq]=${e('Hello World')}`, (a) => a.title === 'Hello World'],
  [`filters[title]=${e('Hello World')}`, (a) => a.title === 'Hello World'],
  [`filters[title][$eqi]=${e('HELLO world')}`, (a) => lower(a.title) === 'hello world'],
  [`filters[title][$ne]=${e('Hello World')}`, (a) => a.title !== 'Hello World'],
  [`filters[title][$nei]=${e('hello WORLD')}`, (a) => lower(a.title) !== 'hello world'],
  ['filters[title][$contains]=WORLD', (a) => lower(a.title).includes('world')],
  ['filters[title][$containsi]=wOrLd', (a) => lower(a.title).includes('world')],
  ['filters[title][$notContains]=world', (a) => !lower(a.title).includes('world')],
  ['filters[title][$notContainsi]=WORLD', (a) => !lower(a.title).includes('world')],
  ['filters[title][$startsWith]=hello', (a) => lower(a.title).startsWith('hello')],
  ['filters[title][$startsWithi]=HELLO', (a) => lower(a.title).startsWith('hello')],
  ['filters[title][$endsWith]=GUIDE', (a) => lower(a.title).endsWith('guide')],
  ['filters[title][$endsWithi]=guide', (a) => lower(a.title).endsWith('guide')],
  [`filters[title][$in][0]=${e('Hello World')}&filters[title][$in][1]=${e('Zebra crossing')}`, (a) => ['Hello World', 'Zebra crossing'].includes(a.title)],
  [`filters[title][$in]=${e('Zebra crossing')}`, (a) => a.title === 'Zebra crossing'],
  [`filters[title][$eq][0]=${e('Hello World')}&filters[title][$eq][1]=${e('hello world')}`, (a) => lower(a.title) === 'hello world'],
  [`filters[title][$notIn][0]=${e('Hello World')}&filters[title][$notIn][1]=${e('Zebra crossing')}`, (a) => !['Hello World', 'Zebra crossing'].includes(a.title)],
  ['filters[title][$lt]=B', (a) => a.title < 'B'],
  ['filters[title][$lte]=Hello%20World', (a) => a.title <= 'Hello World'],
  ['filters[title][$gt]=Z', (a) => a.title > 'Z'],
  ['filters[title][$gte]=Zebra%20crossing', (a) => a.title >= 'Zebra crossing'],
  ['filters[title][$between][0]=A&filters[title][$between][1]=H', (a) => a.title >= 'A' && a.title <= 'H'],
  ['filters[title][$notNull]=true&filters[views][$gt]=30', (a) => a.views > 30],
];

/** Text is literal: `%`, `_` and regular-expression characters never act as wildcards. */
export const LITERAL_TEXT: readonly Case[] = [
  ['filters[title][$contains]=%25', (a) => a.title.includes('%')],
  ['filters[title][$contains]=_', (a) => a.title.includes('_')],
  ['filters[title][$startsWith]=100%25', (a) => a.title.startsWith('100%')],
  ['filters[title][$containsi]=A.B', (a) => lower(a.title).includes('a.b')],
  [`filters[title][$contains]=${e('*c (x)[y]')}`, (a) => a.title.includes('*c (x)[y]')],
  [`filters[title][$endsWith]=${e('(x)[y]')}`, (a) => a.title.endsWith('(x)[y]')],
  ['filters[description][$contains]=50%25%20off_peak', (a) => (a.description ?? '').includes('50% off_peak')],
  ['filters[description][$contains]=%25', (a) => (a.description ?? '').includes('%')],
];

/** `text` (`description`), `uid` (`slug`) and `blocks` (`content`). */
export const TEXT_UID_BLOCKS: readonly Case[] = [
  ['filters[description][$null]=true', (a) => a.description === null],
  ['filters[description][$null]=false', (a) => a.description !== null],
  ['filters[description][$notNull]=true', (a) => a.description !== null],
  ['filters[description][$notNull]=false', (a) => a.description === null],
  ['filters[description][$containsi]=ARTICLE%201', (a) => lower(a.description).includes('article 1')],
  ['filters[description][$notContainsi]=article', (a) => a.description !== null && !lower(a.description).includes('article')],
  ['filters[slug][$startsWith]=a1', (a) => a.key.startsWith('a1')],
  ['filters[slug][$in][0]=a03&filters[slug][$in][1]=a28&filters[slug][$in][2]=a29', (a) => ['a03', 'a28'].includes(a.key)],
  ['filters[content][$containsi]=heading%203', (a) => lower(a.contentText).includes('heading 3')],
  ['filters[content][$contains]=HERE', (a) => a.contentText !== null],
  ['filters[content][$null]=true', (a) => a.contentText === null],
  ['filters[content][$notContainsi]=heading%203', (a) => a.contentText !== null && !lower(a.contentText).includes('heading 3')],
];

/** `integer` (`views`), `decimal` (`rating`) and `boolean` (`featured`): values cast from the query string. */
export const NUMBERS_BOOLEANS: readonly Case[] = [
  ['filters[views][$eq]=30', (a) => a.views === 30],
  ['filters[views]=30', (a) => a.views === 30],
  ['filters[views][$ne]=30', (a) => a.views !== 30],
  ['filters[views][$lt]=20', (a) => a.views < 20],
  ['filters[views][$lte]=20', (a) => a.views <= 20],
  ['filters[views][$gt]=4.5e1', (a) => a.views > 45],
  ['filters[views][$gte]=50', (a) => a.views >= 50],
  ['filters[views][$in][0]=10&filters[views][$in][1]=60', (a) => [10, 60].includes(a.views)],
  ['filters[views][$notIn][0]=0&filters[views][$notIn][1]=10', (a) => ![0, 10].includes(a.views)],
  ['filters[views][$between][0]=10&filters[views][$between][1]=30', (a) => a.views >= 10 && a.views <= 30],
  ['filters[views][$not][$gt]=20', (a) => !(a.views > 20)],
  ['filters[rating][$eq]=4.25', (a) => a.rating === 4.25],
  ['filters[rating][$ne]=4.25', (a) => a.rating !== 4.25],
  ['filters[rating][$gt]=5', (a) => a.rating !== null && a.rating > 5],
  ['filters[rating][$lte]=2.25', (a) => a.rating !== null && a.rating <= 2.25],
  ['filters[rating][$between][0]=1.25&filters[rating][$between][1]=3.25', (a) => a.rating !== null && a.rating >= 1.25 && a.rating <= 3.25],
  ['filters[rating][$null]=true', (a) => a.rating === null],
  ['filters[rating][$notNull]=true', (a) => a.rating !== null],
  ['filters[rating][$in][0]=1.25&filters[rating][$in][1]=8.25', (a) => a.rating === 1.25 || a.rating === 8.25],
  ['filters[featured][$eq]=true', (a) => a.featured],
  ['filters[featured]=true', (a) => a.featured],
  ['filters[featured][$eq]=1', (a) => a.featured],
  ['filters[featured][$eq]=t', (a) => a.featured],
  ['filters[featured][$eq]=false', (a) => !a.featured],
  ['filters[featured][$eq]=0', (a) => !a.featured],
  ['filters[featured][$ne]=true', (a) => !a.featured],
  ['filters[featured][$in][0]=true', (a) => a.featured],
];

/** `$and`, `$or`, `$not` and a list of filters. */
export const LOGICAL: readonly Case[] = [
  ['filters[$or][0][views][$eq]=0&filters[$or][1][featured]=true', (a) => a.views === 0 || a.featured],
  ['filters[$and][0][views][$gte]=20&filters[$and][1][featured]=false', (a) => a.views >= 20 && !a.featured],
  ['filters[$not][views][$gt]=20', (a) => !(a.views > 20)],
  ['filters[$not][$or][0][views][$eq]=0&filters[$not][$or][1][featured]=true', (a) => !(a.views === 0 || a.featured)],
  ['filters[$or][0][$and][0][views][$eq]=10&filters[$or][0][$and][1][featured]=false&filters[$or][1][title][$eq]=Hello%20World', (a) => (a.views === 10 && !a.featured) || a.title === 'Hello World'],
  ['filters[0][views]=10&filters[1][featured]=false', (a) => a.views === 10 && !a.featured],
  ['filters[views][$or][0][$eq]=10&filters[views][$or][1][$eq]=60', (a) => a.views === 10 || a.views === 60],
  ['filters[views][$gte]=10&filters[views][$lte]=30&filters[featured]=false', (a) => a.views >= 10 && a.views <= 30 && !a.featured],
  ['filters[$or][0][title][$contains]=WORLD&filters[$or][1][title][$endsWith]=PURE', (a) => lower(a.title).includes('world') || lower(a.title).endsWith('pure')],
  ['filters[$and][0][rating][$gt]=3&filters[$and][1][$not][title][$containsi]=ARTICLE%202', (a) => a.rating !== null && a.rating > 3 && !lower(a.title).includes('article 2')],
  ['filters[$not][$or][0][views][$eq]=0&filters[$not][$or][1][rating][$null]=true', (a) => !(a.views === 0 || a.rating === null)],
  ['filters[0][views][$gt]=10&filters[1][title][$startsWithi]=ARTICLE', (a) => a.views > 10 && lower(a.title).startsWith('article')],
];
