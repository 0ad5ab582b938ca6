import type { Engine } from '../../lib/engine';
import { isIndexChecked } from '../helpers/index-eligibility';
import { testEngine } from '../helpers/test-engine';
import { CONTRACT_ENGINES } from './contract-engines';

/**
 * Guards issue 24 item 1 without a MongoDB server: the contract runs on bare engines on both engines (the
 * contract suite itself asserts it too, wherever it runs), and mongo.test.ts hands the contract the bare factory.
 */
describe('the engine contract runs on bare engines', () => {
  it.each(Object.entries(CONTRACT_ENGINES))('the %s factory gives an engine without the index check', async (_name, make) => {
    const engine = make();
    try {
      expect(isIndexChecked(engine)).toBe(false);
    } finally {
      await engine.close();
    }
  });

  it('while testEngine(), for the compiler\'s pipelines, keeps the index check', () => {
    expect(isIndexChecked(testEngine())).toBe(true);
  });

  it('mongo.test.ts passes the contract CONTRACT_ENGINES.mongo (checked with MONGODB_URI set, nothing connected)', () => {
    const factories: (() => Engine | Promise<Engine>)[] = [];
    const saved = process.env.MONGODB_URI;
    process.env.MONGODB_URI = 'mongodb://127.0.0.1:1/never';
    try {
      jest.isolateModules(() => {
        jest.doMock('./contract', () => ({ runEngineContract: (_name: string, make: () => Engine) => factories.push(make) }));
        jest.doMock('./contract-engines', () => ({ CONTRACT_ENGINES }));
        require('./mongo.test');
      });
    } finally {
      if (saved === undefined) delete process.env.MONGODB_URI;
      else process.env.MONGODB_URI = saved;
      jest.dontMock('./contract');
      jest.dontMock('./contract-engines');
    }
    expect(factories).toEqual([CONTRACT_ENGINES.mongo]);
  });
});
