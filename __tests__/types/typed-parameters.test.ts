import path from 'node:path';
import { projectErrors, typeErrors } from './type-check';

/**
 * router.documents(uid)'s parameters are checked when the generated types are in use, and stay untyped when they
 * are not: the same calls compiled in a program that has the generated uid maps (typed) and in one that has not
 * (untyped, as in a plain app or JavaScript). The typed error must name the mistake.
 */
const CASES: readonly { mistake: string; call: string; typed: RegExp; untyped?: RegExp }[] = [
  { mistake: 'a wrong uid', call: "router.documents('api::artcle.article')", typed: /"api::artcle\.article"' is not assignable/ },
  { mistake: "an unknown attribute in create's data", call: "articles.create({ data: { titel: 'T' } })", typed: /'titel' does not exist in type 'ArticleInput'/ },
  { mistake: "an unknown attribute in update's data", call: "articles.update({ documentId: 'x', data: { titel: 'T' } })", typed: /'titel' does not exist in type 'ArticleInput'/ },
  { mistake: "an unknown attribute in the REST form's data", call: "articles.create({ titel: 'T' }, { status: 'draft' })", typed: /'titel' does not exist in type 'ArticleInput'/ },
  { mistake: 'data of unknown type', call: "articles.create(JSON.parse('{}') as unknown)", typed: /'unknown' is not assignable/ },
  { mistake: 'a wrong enum value in data', call: "router.documents('api::thing.thing').create({ data: { size: 'xl' } })", typed: /"xl"' is not assignable to type '"s" \| "m" \| "l"/ },
  { mistake: 'a wrong enum value in a component', call: "articles.update({ documentId: 'x', data: { seo: { socials: [{ network: 'myspace' }] } } })", typed: /"myspace"' is not assignable/ },
  { mistake: 'a typo in a filters key', call: "articles.findMany({ filters: { titel: { $eq: 'T' } } })", typed: /'titel' does not exist in type 'TypedFilters<Article>'/ },
  { mistake: 'a typo in a filters key through a relation', call: "articles.findFirst({ filters: { author: { nmae: 'A' } } })", typed: /'nmae' does not exist/ },
  { mistake: 'a typo in a populate key', call: 'articles.findMany({ populate: { auhtor: true } })', typed: /'auhtor' does not exist/ },
  { mistake: 'a typo in a populate entry', call: "articles.findOne({ documentId: 'x', populate: ['author', 'categoris'] })", typed: /"categoris"' is not assignable/ },
  { mistake: 'a typo in a fields entry', call: "articles.findMany({ fields: ['title', 'slgu'] })", typed: /"slgu"' is not assignable/ },
  { mistake: 'a typo in a sort key', call: "articles.findMany({ sort: { titel: 'asc' } })", typed: /'titel' does not exist/ },
  { mistake: 'a wrong status', call: "articles.findMany({ status: 'publish' })", typed: /"publish"' is not assignable/, untyped: /"publish"' is not assignable/ },
  { mistake: 'a wrong status in a create', call: "articles.create({ data: { title: 'T' }, status: 'live' })", typed: /"live"' is not assignable/ },
  { mistake: 'a locale of the wrong type', call: 'articles.findMany({ locale: 1 })', typed: /'number' is not assignable to type 'string'/, untyped: /'number' is not assignable to type 'string'/ },
];

function program(typed: boolean): Record<string, string> {
  const sources: Record<string, string> = {};
  CASES.forEach(({ call }, i) => {
    sources[`case-${i}.ts`] = [
      "import type { ContentRouter } from '../../lib';",
      ...(typed ? ["import type {} from './generated/blog';", "import type {} from './generated/every-type';"] : []),
      'export async function check(router: ContentRouter): Promise<unknown> {',
      "  const articles = router.documents('api::article.article');",
      `  return [articles, await ${call}];`,
      '}',
    ].join('\n');
  });
  return sources;
}

const errorsOf = (errors: string[], i: number): string[] => errors.filter((e) => e.startsWith(`case-${i}.ts(`));

describe('with the generated types', () => {
  const errors = typeErrors(program(true));
  it.each(CASES.map((c, i) => [c.mistake, c, i] as const))('%s is a compile error naming it', (_mistake, c, i) => {
    expect(errorsOf(errors, i)).toEqual([expect.stringMatching(c.typed)]);
  });
});

describe('without generated types (an untyped app)', () => {
  const errors = typeErrors(program(false));
  it.each(CASES.map((c, i) => [c.mistake, c, i] as const))('%s is checked at run time only, unless typed anyway', (_mistake, c, i) => {
    expect(errorsOf(errors, i)).toEqual(c.untyped ? [expect.stringMatching(c.untyped)] : []);
  });
});

it('this folder type-checks as its own project: usage.ts and typed-parameters.ts compile, their @ts-expect-error lines are errors', () => {
  // lib/'s own errors are the root project's (npm run typecheck): here, what this folder says.
  const errors = projectErrors(path.join(__dirname, 'tsconfig.json'));
  expect(errors.filter((e) => e.startsWith(`__tests__${path.sep}types${path.sep}`) || e.startsWith(':'))).toEqual([]);
});
