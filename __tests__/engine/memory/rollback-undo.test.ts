import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryEngine, type Engine } from '../../../lib/engine';

/**
 * Transactions roll back by undo records (storage/undo-log), newest first: the rows come back in their natural
 * order and every index answers as before. A write that fails part way (a unique clash on a later row) is taken
 * back whole before its error reaches the caller, so a transaction that catches the error and commits holds, in
 * memory and in the journal alike, exactly the writes that succeeded.
 */
describe('memory engine: rollback by undo records', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cr-undo-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const open = async (): Promise<Engine> => {
    const engine = memoryEngine({ file: join(dir, 'content.db') });
    await engine.init([{ name: 'a', indexes: [{ name: 'doc', keys: { documentId: 1 }, unique: true }, { name: 'slug', keys: { slug: 1 }, unique: true }, { name: 'tag', keys: { tag: 1 } }] }]);
    return engine;
  };
  const seed = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1, documentId: `d${i + 1}`, slug: `s${i + 1}`, tag: i % 3 === 0 ? 'x' : 'y' }));
  const state = async (engine: Engine) => (await engine.find('a', {})).map(({ _id, ...row }) => row);

  it('a write that clashes part way inside a transaction leaves none of its rows, in memory and after a restart', async () => {
    let engine = await open();
    await engine.insertMany('a', seed(5));
    await engine.transaction(async () => {
      await engine.insertMany('a', [{ id: 6, documentId: 'd6', slug: 's6', tag: 'x' }]);
      // d1 and d2 would take slug "same": d1 is written, d2 clashes with it; the statement is taken back whole.
      await expect(engine.updateMany('a', { documentId: { $in: ['d1', 'd2'] } }, { $set: { slug: 'same' } })).rejects.toMatchObject({ name: 'DuplicateKeyError' });
      // Inserts clashing on their third row: none of the three stays.
      await expect(engine.insertMany('a', [{ id: 7, documentId: 'd7', slug: 's7' }, { id: 8, documentId: 'd8', slug: 's8' }, { id: 9, documentId: 'd9', slug: 's1' }])).rejects.toMatchObject({ name: 'DuplicateKeyError' });
      await engine.updateMany('a', { documentId: 'd3' }, { $set: { tag: 'z' } });
    });
    const expected = [...seed(5).map((r) => (r.id === 3 ? { ...r, tag: 'z' } : r)), { id: 6, documentId: 'd6', slug: 's6', tag: 'x' }];
    expect(await state(engine)).toEqual(expected);
    expect((await engine.find('a', { slug: 'same' })).length).toBe(0);
    expect((await engine.find('a', { documentId: { $in: ['d7', 'd8'] } })).length).toBe(0);
    await engine.insertMany('a', [{ id: 7, documentId: 'd7', slug: 's7' }]); // the taken-back keys are free
    await engine.deleteMany('a', { id: 7 });
    await engine.close();
    engine = await open();
    expect(await state(engine)).toEqual(expected);
    await engine.close();
  });

  it('rolls back nested operations, replaces and large deletes to the same rows in the same order, and reads inside see the writes', async () => {
    const engine = await open();
    await engine.insertMany('a', seed(60));
    await engine.deleteMany('a', { id: { $in: [10, 20] } });
    const before = await state(engine);
    const failing = engine.transaction(async () => {
      await engine.insertMany('a', [{ id: 61, documentId: 'd61', slug: 's61', tag: 'x' }]);
      await engine.transaction(async () => {
        await engine.replaceOne('a', { documentId: 'd1' }, { id: 1, documentId: 'd1', slug: 'moved', tag: 'y' });
        await engine.deleteMany('a', { tag: 'y' }); // 40 rows: the removal and its undo take the merge path
        await engine.deleteMany('a', { id: { $in: [3, 6] } }); // a few rows
        await engine.updateMany('a', { tag: 'x' }, { $set: { tag: 'w' } });
      });
      expect((await engine.find('a', { tag: 'y' })).length).toBe(0);
      expect((await engine.find('a', {})).map((r) => r.id)).toEqual([4, 7, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43, 46, 49, 52, 55, 58, 61]);
      expect(await engine.count('a', { tag: 'w' })).toBe(19);
      throw new Error('rolled back');
    });
    await expect(failing).rejects.toThrow('rolled back');
    expect(await state(engine)).toEqual(before);
    expect((await engine.find('a', { tag: 'x' })).map((r) => r.id)).toEqual(before.filter((r) => r.tag === 'x').map((r) => r.id));
    expect((await engine.find('a', { slug: 's1' })).map((r) => r.id)).toEqual([1]);
    expect(await engine.find('a', { slug: 'moved' })).toEqual([]);
    await expect(engine.insertMany('a', [{ id: 99, documentId: 'd1' }])).rejects.toMatchObject({ name: 'DuplicateKeyError' });
    await engine.insertMany('a', [{ id: 61, documentId: 'd61', slug: 's61', tag: 'x' }]);
    await engine.close();
  });
});
