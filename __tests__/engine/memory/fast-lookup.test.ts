import { MemoryCollection } from '../../../lib/engine/memory/memory-collection';
import { readsVariables } from '../../../lib/engine/memory/batched-lookup';
import { referencedFields } from '../../../lib/engine/memory/slim-stages';
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

describe('readsVariables (whether a batched lookup may run its tail without its own variables)', () => {
  const lookup = (letSpec: Row | undefined, pipeline: Pipeline): Row => ({ $lookup: { from: 'b', ...(letSpec ? { let: letSpec } : {}), pipeline, as: 'j' } });
  it.each([
    ['a stage naming the variable', [{ $addFields: { x: '$$v' } }], true],
    ['a path under the variable', [{ $addFields: { x: '$$v.name' } }], true],
    ['another variable with the same start', [{ $addFields: { x: '$$vv' } }], false],
    ['a system variable', [{ $addFields: { x: '$$ROOT' } }], false],
    ['a field, not a variable', [{ $match: { v: 1 } }, { $sort: { v: 1 } }], false],
    ['a nested lookup whose own let hides the name', [lookup({ v: '$parent' }, [match('$eq', '$documentId', '$$v')])], false],
    ['a nested lookup reading the name in its let', [lookup({ w: '$$v' }, [match('$eq', '$documentId', '$$w')])], true],
    ['a nested lookup reading the enclosing name in its pipeline', [lookup({ w: '$parent' }, [match('$eq', '$documentId', '$$w'), { $addFields: { o: '$$v' } }])], true],
    ['two levels down, hidden at the first', [lookup({ v: '$p' }, [lookup({ w: '$q' }, [{ $addFields: { o: '$$v' } }])])], false],
    ['a nested lookup without let', [lookup(undefined, [{ $addFields: { o: '$$v' } }])], true],
  ])('%s', (_name, stages, expected) => {
    expect(readsVariables(stages as Pipeline, new Set(['v']))).toBe(expected);
  });
});

describe('referencedFields (which fields of a row mingo-evaluated expressions read)', () => {
  it.each([
    ['a field and a path', { a: '$x', b: { $concat: ['$y.z', 'lit'] } }, ['x', 'y']],
    ['variables are not fields', { $map: { input: '$list', as: 'c', in: '$$c.file' } }, ['list']],
    ['nested in arrays', { $ifNull: [['$seo.shareImage'], []] }, ['seo']],
    ['$$ROOT reads everything', { a: '$$ROOT' }, null],
    ['$$CURRENT with a path reads everything', { a: '$$CURRENT.title' }, null],
    ['$$ROOTS is a variable like any other', { a: '$$ROOTS' }, []],
  ])('%s', (_name, expr, expected) => {
    const fields = referencedFields(expr);
    expect(fields === null ? null : [...fields].sort()).toEqual(expected);
  });
});
