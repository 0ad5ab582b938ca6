import type { SeededData } from './seed-blog';

/** One measured request. */
export interface Scenario {
  name: string;
  path: (data: SeededData) => string;
}

/** The scenarios of issue 4, "Performance". The ceiling is measured separately (see run.ts). */
export const SCENARIOS: readonly Scenario[] = [
  { name: 'list default', path: () => '/api/articles' },
  { name: 'list populate=*', path: () => '/api/articles?populate=*' },
  {
    name: 'list 3-level populate',
    path: () => '/api/articles?populate[author][populate][avatar]=true&populate[categories][populate][parent][populate][parent]=true',
  },
  { name: 'findOne populate=*', path: (d) => `/api/articles/${d.middleArticle}?populate=*` },
  {
    name: 'relation filter+sort+page 3',
    path: () => '/api/articles?filters[author][name][$startsWith]=Author%201&sort=title:desc&pagination[page]=3',
  },
  // Issue 32: a category list showing each category's 6 latest articles and their total, vs every article.
  {
    name: 'categories, 6 articles each + total',
    path: () => '/api/categories?fields[0]=name&populate[articles][fields][0]=title&populate[articles][sort][0]=publishDate:desc&populate[articles][limit]=6&populate[articles][withCount]=true',
  },
  {
    name: 'categories, all articles',
    path: () => '/api/categories?fields[0]=name&populate[articles][fields][0]=title&populate[articles][sort][0]=publishDate:desc',
  },
];

/** The name of the scenario whose response bytes the ceiling route returns. */
export const CEILING_OF = 'list populate=*';
