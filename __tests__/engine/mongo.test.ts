import { runEngineContract } from './contract';
import { CONTRACT_ENGINES } from './contract-engines';

if (process.env.MONGODB_URI) {
  // Every test gets a bare engine on its own throwaway database (dropped after this file, engines closed), so a
  // second run, or another suite running at the same time, never sees this one's collections. A standalone
  // server has no transactions: MONGODB_TRANSACTIONS=0 runs on one anyway (the engine's unsafe
  // `transactions: false`, set by bareTestEngine) and skips the rollback cases.
  runEngineContract('mongo', CONTRACT_ENGINES.mongo, { rollback: process.env.MONGODB_TRANSACTIONS !== '0' });
} else {
  describe.skip('Engine contract: mongo (skipped: set MONGODB_URI=mongodb://host:27017/test?replicaSet=rs0 to run it)', () => {
    it('needs a MongoDB server', () => undefined);
  });
}
