import { compileFilterJoins, type FilterJoinNode } from '../../../lib/pipeline';
import type { FilterNode } from '../../../lib/query/types';
import type { ContentType } from '../../../lib/schema';
import { article, author, category, registry, through, where } from './fixtures';

/** Path, collection, one, the statistic's second stage (after its scope), children: what the budget reads. */
function shape(nodes: readonly FilterJoinNode[]): unknown[] {
  return nodes.map((n) => [n.path.join('.'), n.collection, n.one, n.fanOut ? JSON.stringify(n.fanOut.pipeline[1]) : null, shape(n.children)]);
}

const name = where(author.attributes, 'name', '$eq', 'x');
const title = where(article.attributes, 'title', '$eq', 'x');
const LONGEST_CATEGORIES = '{"$project":{"_id":0,"m":{"$cond":[{"$isArray":["$categories"]},{"$size":"$categories"},1]}}}';

describe('compileFilterJoins: the relation filters of a read, as the join budget sees them', () => {
  it.each<[string, ContentType, FilterNode | undefined, unknown[]]>([
    ['no filters', article, undefined, []],
    ['a scalar', article, title, []],
    ['to-one owning: one row, no statistic', article, through(article, 'author', name), [['author', 'authors', true, null, []]]],
    ['mappedBy to-many: the most referrers of a key', author, through(author, 'articles', title), [['articles', 'articles', false, '{"$unwind":"$author"}', []]]],
    ['owning to-many: the longest array', article, through(article, 'categories', where(category.attributes, 'name', '$eq', 'x')),
      [['categories', 'categories', false, LONGEST_CATEGORIES, []]]],
    ['nested, under $not and $or', article, { type: 'not', child: { type: 'or', children: [title, through(article, 'author', through(author, 'articles', title))] } },
      [['author', 'authors', true, null, [['author.articles', 'articles', false, '{"$unwind":"$author"}', []]]]]],
  ])('%s', (_name, owner, filters, expected) => {
    expect(shape(compileFilterJoins(registry, owner, filters, 'published'))).toEqual(expected);
  });
});
