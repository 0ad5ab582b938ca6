/**
 * Type-level tests of the generated declarations (generated/*.d.ts, augmenting lib/ through declaration merging),
 * checked by `npm run typecheck` (tsconfig includes __tests__): every `@ts-expect-error` must be an error, the
 * rest must compile. Not run by jest (no `.test.ts`); generated-types.test.ts imports `typedUsage` to run it.
 * This folder is its own TypeScript project (tsconfig.json here): the generated uid maps augment the library only
 * in it, so the rest of the repository type-checks as an app without generated types.
 */
import type { Document, DocumentResponseCollection } from '@strapi/client/dist/types/content-api';
import type { ContentRouter, ContentRouterOptions, DocumentService, DocumentUid } from '../../lib';
import type { Article, Author, ListPagination, SharedQuote, SharedSeo } from './generated/blog';
import type { Thing } from './generated/every-type';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(): T => true as T;

/** Reads through the typed Document Service; returns what it read so that a jest test can run it. */
export async function typedUsage(router: ContentRouter): Promise<{ titles: (string | null)[]; authorNames: string[]; zone: string[] }> {
  const articles = await router.documents('api::article.article').findMany({ populate: { author: true, blocks: true } });
  assertType<Equal<typeof articles, Article[]>>();
  const titles = articles.map((a) => a.title);
  // A relation is absent unless populated: the type says so.
  const authorNames = articles.flatMap((a) => (a.author ? [a.author.name] : []));
  const zone = articles.flatMap((a) => (a.blocks ?? []).map((b) => (b.__component === 'shared.quote' ? `quote:${String(b.title)}` : b.__component)));
  // @ts-expect-error: a relation is optional (absent unless populated)
  void articles[0]?.author.name;
  // @ts-expect-error: no such attribute
  void articles[0]?.titel;
  // @ts-expect-error: a title is a string or null, never a number
  const wrong: number = articles[0]!.title;
  void wrong;
  return { titles, authorNames, zone };
}

/** Scalar types per attribute type, as the API answers them. */
export function scalarTypes(thing: Thing): void {
  assertType<Equal<Thing['big'], string | null>>(); // biginteger: decimal digits
  assertType<Equal<Thing['price'], number | null>>(); // decimal: a number
  assertType<Equal<Thing['day'] | Thing['at'] | Thing['when'] | Thing['stamp'], string | null>>();
  assertType<Equal<Thing['size'], 's' | 'm' | 'l' | null>>();
  assertType<Equal<Thing['owner'], Thing['owner']>>();
  // @ts-expect-error: private attributes and passwords are never answered
  void thing.secret;
  for (const item of thing.zone ?? []) {
    if (item.__component === 'parts.note') void item.body;
    // @ts-expect-error: narrowed on __component: a note has no label
    else if (item.__component === 'parts.note') void item.label;
  }
}

/** With the generated types in use, only their uids are content types; any service fits `DocumentService<any>`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function services(router: ContentRouter): DocumentService<any>[] {
  // @ts-expect-error: a wrong uid (not a content type of the model)
  void router.documents('api::artcle.article');
  // @ts-expect-error: the upload plugin's files have no document service
  void router.documents('plugin::upload.file');
  // A uid known only at run time: the untyped form, as without generated types.
  const uid: string = 'api::article.article';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const dynamic: DocumentService<any> = router.documents(uid as DocumentUid);
  void dynamic.create({ anything: 1 }, { status: 'draft' });
  return [router.documents('api::article.article'), router.documents('api::global.global'), dynamic];
}

/** @strapi/client results: its documents are `Document`s (`any` values); the generated types name them. */
export function fromStrapiClient(res: DocumentResponseCollection): Author[] {
  const authors = res.data as Author[];
  const one: Document = authors[0]!;
  void one;
  return authors;
}

/** A list's `meta.pagination`, cursor pages included (issue 32): a cursor is a string or null, never missing. */
export const paginations: ListPagination[] = [
  { page: 1, pageSize: 25, pageCount: 1, total: 3 },
  { start: 0, limit: 25 },
  { limit: 50, nextCursor: null },
  { limit: 50, nextCursor: 'WzEsMl0.abc', total: 3 },
  // @ts-expect-error: a cursor page always says whether there is a next one
  { limit: 50 },
  // @ts-expect-error: a cursor is a string
  { limit: 50, nextCursor: 12 },
];

/** The options describe schemas: obvious mistakes fail to compile. */
export const mistakes: ContentRouterOptions[] = [
  // @ts-expect-error: contentTypes is an array of schemas
  { contentTypes: { kind: 'collectionType', info: { singularName: 'a', pluralName: 'as' }, attributes: {} } },
  // @ts-expect-error: a schema without attributes
  { contentTypes: [{ kind: 'collectionType', info: { singularName: 'a', pluralName: 'as' } }] },
  // @ts-expect-error: an attribute without a type
  { contentTypes: [{ kind: 'collectionType', info: { singularName: 'a', pluralName: 'as' }, attributes: { title: { required: true } } }] },
  // @ts-expect-error: components are keyed by uid, not an array
  { contentTypes: [], components: [{ attributes: {} }] },
];

export type { SharedQuote, SharedSeo };
