import { MemoryCollection } from '../../../lib/engine/memory/memory-collection';
import { createFastLookup, planLookup } from '../../../lib/engine/memory/fast-lookup';
import { Aggregator, createContext } from '../../../lib/engine/memory/mingo-runtime';
import type { Pipeline, Row } from '../../../lib/engine';

const match = (op: string, field: unknown, variable: unknown): Row => ({ $match: { $expr: { [op]: [field, variable] } } });

describe('planLookup', () => {
  it.each([
    ['correlated $in', { from: 'b', let: { v: '$x' }, pipeline: [match('$in', '$documentId', '$$v')], as: 'j' }, { kind: 'correlated', operator: '$in', field: 'documentId', variable: 'v' }],
    ['correlated $eq', { from: 'b', let: { v: '$x' }, pipeline: [match('$eq', '$id', '$$v'), { $limit: 1 }], as: 'j' }, { kind: 'correlated', operator: '$eq', field: 'id', variable: 'v' }],
    ['uncorrelated', { from: 'b', pipeline: [{ $match: { a: 1 } }], as: 'j' }, { kind: 'uncorrelated' }],
    ['uncorrelated, empty let', { from: 'b', let: {}, pipeline: [], as: 'j' }, { kind: 'uncorrelated' }],
    ['localField', { from: 'b', localField: 'a', foreignField: 'b', as: 'j' }, null],
    ['swapped operands', { from: 'b', let: { v: '$x' }, pipeline: [match('$in', '$$v', '$documentId')], as: 'j' }, null],
    ['dotted field', { from: 'b', let: { v: '$x' }, pipeline: [match('$eq', '$a.b', '$$v')], as: 'j' }, null],
    ['variable not in let', { from: 'b', let: { v: '$x' }, pipeline: [match('$eq', '$a', '$$w')], as: 'j' }, null],
    ['extra $match key', { from: 'b', let: { v: '$x' }, pipeline: [{ $match: { $expr: { $eq: ['$a', '$$v'] }, b: 1 } }], as: 'j' }, null],
    ['other operator', { from: 'b', let: { v: '$x' }, pipeline: [match('$gt', '$a', '$$v')], as: 'j' }, null],
    ['$documents', { let: { v: '$x' }, pipeline: [{ $documents: [] }], as: 'j' }, null],
  ])('%s', (_name, expr, plan) => {
    expect(planLookup(expr as never)).toEqual(plan);
  });
});

describe('createFastLookup', () => {
  const authors = new MemoryCollection('authors');
  ['a1', 'a2', 'a3'].forEach((d, i) => authors.insert({ _id: `${i}`, documentId: d }));
  let resolved = 0;
  const run = (pipeline: Pipeline, rows: Row[]): Row[] =>
    new Aggregator(pipeline, {
      scriptEnabled: false,
      context: createContext(createFastLookup((name) => (name === 'authors' ? authors : undefined))),
      collectionResolver: (name: string) => {
        resolved++;
        return name === 'authors' ? (authors.all() as Row[]) : [];
      },
    }).run(rows) as Row[];

  beforeEach(() => {
    resolved = 0;
  });

  it('runs an uncorrelated sub-pipeline once for all input rows', () => {
    const out = run([{ $lookup: { from: 'authors', pipeline: [{ $match: { documentId: 'a2' } }], as: 'j' } }], [{}, {}, {}]);
    expect(out.map((r) => (r.j as Row[]).length)).toEqual([1, 1, 1]);
    expect(resolved).toBe(1);
  });

  it('answers a correlated lookup from the index without scanning the collection', () => {
    const lookup = { from: 'authors', let: { ids: '$ids' }, pipeline: [match('$in', '$documentId', '$$ids')], as: 'j' };
    const out = run([{ $lookup: lookup }], [{ ids: ['a3', 'a1'] }, { ids: [] }]);
    expect(out.map((r) => (r.j as Row[]).map((a) => a.documentId))).toEqual([['a1', 'a3'], []]);
    expect(resolved).toBe(0);
  });

  it('falls back to mingo for a non-indexable variable value', () => {
    const lookup = { from: 'authors', let: { ids: '$ids' }, pipeline: [match('$in', '$documentId', '$$ids')], as: 'j' };
    run([{ $lookup: lookup }], [{ ids: [{ a: 1 }] }]);
    expect(resolved).toBe(1);
  });
});
