import { MemoryCollection } from '../../../lib/engine/memory/storage/memory-collection';
import { readsVariables } from '../../../lib/engine/memory/execution/fast-paths/batched-lookup';
import { createFastLookup } from '../../../lib/engine/memory/execution/fast-paths/mingo-indexed-lookup';
import { planLookup } from '../../../lib/engine/memory/execution/lookup-shapes';
import { referencedFields } from '../../../lib/engine/memory/execution/slim-rows';
import { localValues } from '../../../lib/engine/memory/semantics/equality-lookup';
import { createContext } from '../../../lib/engine/memory/semantics/mingo-context';
import { Aggregator } from '../../../lib/engine/memory/semantics/mingo-runtime';
import type { Pipeline, Row } from '../../../lib/engine';

const match = (op: string, field: unknown, variable: unknown): Row => ({ $match: { $expr: { [op]: [field, variable] } } });

describe('planLookup', () => {
  it.each([
    ['equality', { from: 'b', localField: 'a', foreignField: 'b', as: 'j' }, { kind: 'equality', localField: 'a', foreignField: 'b' }],
    ['equality with let and pipeline, dotted localField', { from: 'b', localField: 'blocks.image', foreignField: 'id', let: { v: '$x' }, pipeline: [{ $limit: 1 }], as: 'j' }, { kind: 'equality', localField: 'blocks.image', foreignField: 'id' }],
    ['uncorrelated', { from: 'b', pipeline: [{ $match: { a: 1 } }], as: 'j' }, { kind: 'uncorrelated' }],
    ['uncorrelated, empty let', { from: 'b', let: {}, pipeline: [], as: 'j' }, { kind: 'uncorrelated' }],
    ['let without localField', { from: 'b', let: { v: '$x' }, pipeline: [match('$eq', '$id', '$$v')], as: 'j' }, null],
    ['localField alone', { from: 'b', localField: 'a', pipeline: [], as: 'j' }, null],
    ['dotted foreignField', { from: 'b', localField: 'a', foreignField: 'b.c', as: 'j' }, null],
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
  const docs = (out: Row[]): unknown[] => out.map((r) => (r.j as Row[]).map((a) => a.documentId));

  beforeEach(() => {
    resolved = 0;
  });

  it('runs an uncorrelated sub-pipeline once for all input rows', () => {
    const out = run([{ $lookup: { from: 'authors', pipeline: [{ $match: { documentId: 'a2' } }], as: 'j' } }], [{}, {}, {}]);
    expect(out.map((r) => (r.j as Row[]).length)).toEqual([1, 1, 1]);
    expect(resolved).toBe(1);
  });

  it('answers an equality lookup from the index without scanning the collection', () => {
    const lookup = { from: 'authors', localField: 'ids', foreignField: 'documentId', pipeline: [{ $project: { _id: 0, documentId: 1 } }], as: 'j' };
    const out = run([{ $lookup: lookup }], [{ ids: ['a3', 'a1'] }, { ids: [] }, {}]);
    expect(docs(out)).toEqual([['a1', 'a3'], [], []]);
    expect(resolved).toBe(0);
  });

  it('scans for a value the index cannot hold, with the manual\'s equality', () => {
    const lookup = { from: 'authors', localField: 'ids', foreignField: 'documentId', pipeline: [], as: 'j' };
    expect(docs(run([{ $lookup: lookup }], [{ ids: [{ a: 1 }, 'a2'] }]))).toEqual([['a2']]);
    expect(resolved).toBe(1);
  });

  it('gives the manual\'s answer for a collection it cannot index (issue 10\'s example)', () => {
    const out = new Aggregator([{ $lookup: { from: 'b', localField: 'ids', foreignField: 'k', pipeline: [{ $project: { _id: 0, v: 1 } }], as: 'j' } }], {
      scriptEnabled: false,
      context: createContext(createFastLookup(() => undefined)),
      collectionResolver: () => [{ k: 'x', v: 1 }, { k: 'y', v: 2 }],
    }).run([{ ids: ['x'] }]) as Row[];
    expect(out).toEqual([{ ids: ['x'], j: [{ v: 1 }] }]);
  });
});

describe('localValues (the values localField joins on)', () => {
  it.each([
    ['a scalar', { a: 1 }, 'a', [1]],
    ['an array, expanded', { a: [1, null, 2] }, 'a', [1, null, 2]],
    ['missing', {}, 'a', [null]],
    ['an empty array', { a: [] }, 'a', [null]],
    ['null', { a: null }, 'a', [null]],
    ['a path through documents and arrays of them', { b: [{ a: 1 }, { a: [2, 3] }, { x: 1 }, [{ a: 4 }], null] }, 'b.a', [1, 2, 3]],
    ['two arrays deep', { b: [{ c: [{ a: 1 }, { a: 2 }] }, { c: { a: 3 } }] }, 'b.c.a', [1, 2, 3]],
    ['a positional part', { b: [{ a: 1 }, { a: 2 }] }, 'b.1.a', [2]],
  ])('%s', (_name, row, path, expected) => {
    expect(localValues(row as Row, path)).toEqual(expected);
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
