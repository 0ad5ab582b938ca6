import type { Engine, Row } from '../../../lib/engine';
import { ReadLimitError } from '../../../lib/engine';
import { populateMeter, readLimitError } from '../../../lib/documents/populate-budget';
import { compileFindOne } from '../../../lib/pipeline';
import type { PopulateMap } from '../../../lib/query/types';
import { deepFreeze } from '../../../lib/util/frozen';
import { article, category, pop, query, registry, run, seededEngine } from '../pipeline/fixtures';

/**
 * The join budget as MongoDB sees it: each to-many populate join of a read with `maxJoinedRows` ends with
 * `$limit: maxJoinedRows + 1`, and the reader counts the populated rows of every result row (populateMeter, the
 * AggregateOptions.onRow of documents/read-documents), each related row once per place it appears, inside
 * components and dynamic zones too, `count` populates not at all.
 */
const A = article.attributes;
const seo = registry.component('shared.seo').attributes;
const media = registry.component('shared.media').attributes;
const slider = registry.component('shared.slider').attributes;

let engine: Engine;
beforeAll(async () => {
  engine = await seededEngine();
});

const tree: PopulateMap = {
  author: pop(A, 'author', { populate: { avatar: pop(registry.contentType('api::author.author').attributes, 'avatar') } }), // 1 + 1
  categories: pop(A, 'categories', { populate: { parent: pop(category.attributes, 'parent') } }), // 2 + 1 (web, tech; web's parent tech)
  gallery: pop(A, 'gallery'), // 2
  seo: pop(A, 'seo', { populate: { shareImage: pop(seo, 'shareImage') } }), // 1
  blocks: pop(A, 'blocks', { on: { 'shared.media': pop(A, 'blocks', { populate: { file: pop(media, 'file') } }), 'shared.slider': pop(A, 'blocks', { populate: { files: pop(slider, 'files') } }) } }), // 1 + 2
};

async function alpha(populate: PopulateMap, maxJoinedRows?: number): Promise<Row> {
  const q = query(article, { populate, ...(maxJoinedRows === undefined ? {} : { maxJoinedRows }) });
  const [row] = await run(engine, article, compileFindOne(registry, article, q, { documentId: 'a1' }));
  return row!;
}

describe('the join budget on a read result (populateMeter)', () => {
  it('counts every populated row once per place, at every depth, in components and dynamic zones', async () => {
    const row = await alpha(tree);
    const at = (max: number): unknown => {
      try {
        populateMeter(query(article, { populate: tree, maxJoinedRows: max }))!(row);
        return 'ok';
      } catch (error) {
        return error;
      }
    };
    expect(at(11)).toBe('ok'); // 2 + 3 + 2 + 1 + 3 = 11
    const over = at(10) as ReadLimitError;
    expect(over).toBeInstanceOf(ReadLimitError);
    expect(over).toMatchObject({ limit: 'joinedRows', max: 10, param: 'populate' });
    expect(over.path).toEqual(['blocks', 'files']); // the last rows counted: the slider's files
  });

  it('counts no `count` populate, and no read without a budget or a populate', async () => {
    const counted: PopulateMap = { categories: pop(A, 'categories', { count: true }) };
    const row = await alpha(counted);
    expect(() => populateMeter(query(article, { populate: counted, maxJoinedRows: 1 }))!(row)).not.toThrow();
    expect(populateMeter(query(article, { populate: tree }))).toBeUndefined();
    expect(populateMeter(query(article, { maxJoinedRows: 1 }))).toBeUndefined();
  });

  it('counts the same with a frozen query (its walk compiled once), each meter from zero', async () => {
    const row = await alpha(tree);
    const frozen = deepFreeze(query(article, { populate: tree, maxJoinedRows: 11 }));
    for (let i = 0; i < 3; i++) expect(() => populateMeter(frozen)!(row)).not.toThrow();
    const tight = deepFreeze(query(article, { populate: tree, maxJoinedRows: 10 }));
    for (let i = 0; i < 2; i++) expect(() => populateMeter(tight)!(row)).toThrow(expect.objectContaining({ path: ['blocks', 'files'] }));
  });

  it('skips a dynamic zone item whose __component names no selected component, an Object.prototype key included', () => {
    const meter = populateMeter(query(article, { populate: { blocks: tree.blocks! }, maxJoinedRows: 1 }))!;
    const item = (component: string) => ({ __component: component, id: 1, file: { id: 2 }, files: [{ id: 3 }, { id: 4 }] });
    expect(() => meter({ id: 1, blocks: [item('constructor'), item('toString'), item('__proto__'), 'x', null] })).not.toThrow();
    expect(() => meter({ id: 1, blocks: [item('shared.slider')] })).toThrow(ReadLimitError);
  });

  it('bounds each to-many populate join in the pipeline by a $limit of the budget + 1, before its nested populates', () => {
    const pipeline = compileFindOne(registry, article, query(article, { populate: tree, maxJoinedRows: 7 }), { documentId: 'a1' });
    const text = JSON.stringify(pipeline);
    expect(text.match(/\{"\$limit":8\}/g)).toHaveLength(5); // categories, gallery, seo.shareImage, blocks.file, blocks.files
    const categories = pipeline.find((s) => (s.$lookup as { as?: string } | undefined)?.as === 'categories')!.$lookup as { pipeline: Record<string, unknown>[] };
    const limitAt = categories.pipeline.findIndex((s) => s.$limit === 8);
    const nestedAt = categories.pipeline.findIndex((s) => s.$lookup !== undefined);
    expect(limitAt).toBeGreaterThan(-1);
    expect(limitAt).toBeLessThan(nestedAt);
    expect(JSON.stringify(compileFindOne(registry, article, query(article, { populate: tree }), { documentId: 'a1' }))).not.toContain('"$limit":8');
  });

  it('answers a ReadLimitError with a 400 naming the path, the limit and its option', () => {
    expect(readLimitError(new ReadLimitError('joinedRows', 10, ['categories', 'articles']))).toMatchObject({
      name: 'ValidationError',
      message: "Invalid populate parameter: categories.articles joins more than 10 rows (the read's join budget)",
      details: { key: 'categories', path: 'categories.articles', source: 'query', param: 'populate', limit: 'maxJoinedRows', option: 'rest.maxJoinedRows', max: 10 },
    });
    expect(readLimitError(new ReadLimitError('time', 1000))).toMatchObject({ name: 'ValidationError', message: 'The query exceeded its time limit of 1000 ms', details: { limit: 'maxTimeMS' } });
    const other = new Error('x');
    expect(readLimitError(other)).toBe(other);
  });
});
