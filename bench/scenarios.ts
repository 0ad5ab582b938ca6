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
];

/** The name of the scenario whose response bytes the ceiling route returns. */
export const CEILING_OF = 'list populate=*';
