import type { Row } from '../../../lib/engine/types';
import { memoryEngine } from '../../../lib/engine';
import { applyChanges } from '../../../lib/engine/memory/execution/apply-changes';
import { compileRowTest, matchRows } from '../../../lib/engine/memory/execution/match-rows';
import { MemoryCollection } from '../../../lib/engine/memory/storage/memory-collection';
import { UndoLog } from '../../../lib/engine/memory/storage/undo-log';
import { firstSorted, planSort, sortPlan } from '../../../lib/engine/memory/execution/sort-rows';
import { prng } from '../../helpers/prng';

/**
 * A kept plain-equality match result is brought up to date from the collection's changes (apply-changes), with the
 * sort plans built on it (sort-rows carryPlans), instead of rescanning after every write. The result must be what a
 * full rescan gives after any sequence of inserts, replaces (scope fields changed included), removes and
 * rollbacks, and each sorted page what a fresh plan on a fresh array gives.
 */

const random = prng;

const SCOPES: Record<string, unknown>[] = [
  { _status: 'published', locale: 'en' }, { _status: 'draft', locale: 'en' }, { _status: 'published' }, { locale: 'fr' }, { documentId: 'd3', _status: 'draft' },
  // Filters other than plain equalities are kept too (match-rows keptFilter).
  { _status: 'published', views: { $gte: 2 } }, { $or: [{ title: { $in: ['a', 'Zed'] } }, { rank: { $lt: 2 } }], locale: 'en' }, { title: { $regex: '^[a-c]$', $options: 'i' } },
];
const SORTS = [{ id: 1 }, { id: -1 }, { title: -1, id: 1 }, { title: 1 }, { views: 1 }, { rank: -1 }];
const PAGES = [1, 3, 10, 40];

function pick<T>(rnd: () => number, items: readonly T[]): T {
  return items[Math.floor(rnd() * items.length)]!;
}

function makeRow(rnd: () => number, id: number, documentId: string): Row {
  const row: Row = {
    _id: `o${id}`,
    id,
    documentId,
    _status: pick(rnd, ['draft', 'published']),
    locale: pick(rnd, ['en', 'en', 'fr']),
    title: pick(rnd, ['a', 'b', 'c', 'Zed', 'é']),
    views: pick(rnd, [1, 2, 3, 2.5, -1]),
  };
  // `rank` is uniform (direct plans) until a row holds a string or nothing there (keyed plans).
  const r = rnd();
  if (r < 0.9) row.rank = Math.floor(rnd() * 5);
  else if (r < 0.95) row.rank = 'x';
  return row;
}

/** Compares every scope's kept result and its sorted pages with a rescan and fresh plans. */
function checkReads(col: MemoryCollection, rnd: () => number): void {
  for (const scope of SCOPES) {
    if (rnd() < 0.3) continue; // some scopes skip reads: their results fall several changes behind
    const rows = matchRows(col, scope, {});
    const rescan = col.all().filter(compileRowTest(scope, {}));
    expect(rows.length).toBe(rescan.length);
    rows.forEach((row, i) => expect(row).toBe(rescan[i]));
    for (const sort of SORTS) {
      const plan = planSort(rows, sort)!;
      const fresh = sortPlan(rescan, sort)!;
      const k = pick(rnd, PAGES);
      const page = firstSorted(rows, plan, k);
      const expected = firstSorted(rescan, fresh, k);
      expect(page.map((r) => r.id)).toEqual(expected.map((r) => r.id));
      page.forEach((row, i) => expect(row).toBe(expected[i]));
    }
  }
}

function randomWrites(col: MemoryCollection, rnd: () => number, next: { id: number }, undo?: UndoLog): void {
  const rows = col.all();
  const op = rnd();
  if (op < 0.4 || rows.length < 5) {
    const id = next.id++;
    col.insert(makeRow(rnd, id, `d${Math.floor(rnd() * 20)}`), undo);
  } else if (op < 0.75) {
    const prev = pick(rnd, rows);
    const changed = makeRow(rnd, prev.id as number, prev.documentId as string);
    col.replace(prev, { ...changed, _id: prev._id }, undo);
  } else {
    const count = rnd() < 0.1 ? 20 : 1 + Math.floor(rnd() * 3);
    col.remove(new Set(Array.from({ length: count }, () => pick(rnd, col.all()))), undo);
  }
}

describe('memory engine: kept match results and sorts after writes', () => {
  it.each([1, 2, 3, 4, 5, 6])('equal a rescan after random writes and rollbacks (seed %i)', (seed) => {
    const rnd = random(seed);
    const col = new MemoryCollection('t', [{ name: 'doc', keys: { documentId: 1 } }]);
    const next = { id: 1 };
    for (let i = 0; i < 60; i++) col.insert(makeRow(rnd, next.id++, `d${i % 20}`));
    for (let step = 0; step < 150; step++) {
      if (rnd() < 0.15) {
        const saved = col.save();
        const undo = new UndoLog();
        checkReads(col, rnd); // reads inside the transaction
        for (let i = 0, n = 1 + Math.floor(rnd() * 6); i < n; i++) randomWrites(col, rnd, next, undo);
        if (rnd() < 0.5) checkReads(col, rnd);
        undo.rollbackTo(0);
        expect(col.all()).toEqual(saved);
      } else {
        for (let i = 0, n = 1 + Math.floor(rnd() * 3); i < n; i++) randomWrites(col, rnd, next);
      }
      checkReads(col, rnd);
    }
  });

  it('rebuilds a result whose changes are no longer logged', () => {
    const rnd = random(7);
    const col = new MemoryCollection('t');
    const next = { id: 1 };
    for (let i = 0; i < 50; i++) col.insert(makeRow(rnd, next.id++, `d${i}`));
    checkReads(col, () => 0.5);
    for (let i = 0; i < 9000; i++) randomWrites(col, rnd, next);
    expect(col.changesSince(0)).toBeNull();
    checkReads(col, () => 0.5);
  });

  it('keeps the result of a range filter across reads and brings it up to date after a write; a $expr is never kept', () => {
    const col = new MemoryCollection('t');
    for (let id = 1; id <= 5; id++) col.insert({ _id: id, id, views: id });
    const filter = { views: { $gte: 3 } };
    const first = matchRows(col, filter, {});
    expect(matchRows(col, filter, {})).toBe(first); // kept: no rescan of the collection
    col.insert({ _id: 6, id: 6, views: 9 });
    expect(matchRows(col, filter, {}).map((r) => r.id)).toEqual([3, 4, 5, 6]);
    const expr = { $expr: { $gte: ['$views', 3] } };
    expect(matchRows(col, expr, {})).not.toBe(matchRows(col, expr, {}));
  });

  it('keeps a replaced row in its place and drops a row whose scope changed', () => {
    const col = new MemoryCollection('t');
    const rows = [1, 2, 3].map((id) => ({ _id: id, id, _status: 'published', title: `t${id}` }));
    for (const row of rows) col.insert(row);
    const before = matchRows(col, { _status: 'published' }, {});
    const version = col.version;
    const moved = { ...rows[0]!, title: 'z' };
    col.replace(rows[0]!, moved);
    col.replace(rows[1]!, { ...rows[1]!, _status: 'draft' });
    const next = applyChanges(before, col.changesSince(version)!, compileRowTest({ _status: 'published' }, {}), (r) => col.sequence(r));
    expect(next.rows).toEqual([moved, rows[2]]);
    expect(next.added).toEqual([moved]);
    expect(next.removed).toEqual([rows[0], rows[1]]);
    expect(matchRows(col, { _status: 'published' }, {})).toEqual([moved, rows[2]]);
  });
});

describe('memory engine: a sort over the whole collection after writes', () => {
  it('is planned on the rows of now (the collection array changes in place)', async () => {
    const engine = memoryEngine({ ephemeral: true });
    await engine.init([{ name: 'a', indexes: [] }]);
    await engine.insertMany('a', [{ id: 1, t: 'c' }, { id: 2, t: 'b' }, { id: 3, t: 'd' }]);
    const ids = async (): Promise<unknown[]> => (await engine.aggregate('a', [{ $sort: { t: 1 } }, { $limit: 2 }])).map((r) => r.id);
    expect(await ids()).toEqual([2, 1]);
    await engine.insertMany('a', [{ id: 4, t: 'a' }]);
    expect(await ids()).toEqual([4, 2]);
    await engine.deleteMany('a', { id: 4 });
    expect(await ids()).toEqual([2, 1]);
    await engine.replaceOne('a', { id: 2 }, { id: 2, t: 'z' });
    expect(await ids()).toEqual([1, 3]);
    await engine.close();
  });
});
