import { DuplicateKeyError, memoryEngine } from '../../lib/engine';
import { runEngineContract } from './contract';
import { CONTRACT_ENGINES } from './contract-engines';

runEngineContract('memory', CONTRACT_ENGINES.memory);

describe('memory engine specifics', () => {
  const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  it('an init whose new unique index the stored rows violate fails and keeps the previous indexes', async () => {
    const engine = memoryEngine({ ephemeral: true });
    await engine.init([{ name: 'a', indexes: [{ name: 'id', keys: { id: 1 }, unique: true }] }]);
    await engine.insertMany('a', [{ id: 1, slug: 's' }, { id: 2, slug: 's' }]);
    await expect(engine.init([{ name: 'a', indexes: [{ name: 'id', keys: { slug: 1 }, unique: true }] }])).rejects.toBeInstanceOf(DuplicateKeyError);
    await expect(engine.insertMany('a', [{ id: 1, slug: 't' }])).rejects.toBeInstanceOf(DuplicateKeyError);
    await engine.insertMany('a', [{ id: 3, slug: 's' }]);
  });

  it('serializes transactions: the second starts after the first has finished', async () => {
    const engine = memoryEngine({ ephemeral: true });
    const events: string[] = [];
    const first = engine.transaction(async () => {
      events.push('first:start');
      await tick();
      await engine.insertMany('a', [{ n: 1 }]);
      events.push('first:end');
    });
    const second = engine.transaction(async () => {
      events.push('second:start');
      await engine.insertMany('a', [{ n: 2 }]);
      events.push('second:end');
    });
    await Promise.all([first, second]);
    expect(events).toEqual(['first:start', 'first:end', 'second:start', 'second:end']);
  });

  it('queues a plain write behind a running transaction, so a rollback cannot undo it', async () => {
    const engine = memoryEngine({ ephemeral: true });
    const failing = engine.transaction(async () => {
      await engine.insertMany('a', [{ n: 1 }]);
      await tick();
      throw new Error('boom');
    });
    const plain = engine.insertMany('a', [{ n: 2 }]);
    await expect(failing).rejects.toThrow('boom');
    await plain;
    expect((await engine.find('a', {})).map((r) => r.n)).toEqual([2]);
  });

  it('does not let reads outside a transaction see its uncommitted writes', async () => {
    const engine = memoryEngine({ ephemeral: true });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tx = engine.transaction(async () => {
      await engine.insertMany('a', [{ n: 1 }]);
      await gate;
      throw new Error('abort');
    });
    await tick();
    const read = engine.find('a', {});
    release();
    await expect(tx).rejects.toThrow('abort');
    expect(await read).toEqual([]);
  });

  it('joins nested transactions to the outer one', async () => {
    const engine = memoryEngine({ ephemeral: true });
    const failing = engine.transaction(async () => {
      await engine.transaction(() => engine.insertMany('a', [{ n: 1 }]));
      throw new Error('outer');
    });
    await expect(failing).rejects.toThrow('outer');
    expect(await engine.count('a', {})).toBe(0);
  });

  it('counts engine calls in stats', async () => {
    const engine = memoryEngine({ ephemeral: true });
    await engine.insertMany('a', [{ n: 1 }]);
    await engine.aggregate('a', []);
    await engine.find('a', {});
    expect(engine.stats).toEqual({ aggregate: 1, find: 1, write: 1 });
  });
});
