import { testEngine } from '../helpers/test-engine';
import { runEngineContract } from './contract';

if (process.env.MONGODB_URI) {
  // testEngine() gives every test its own throwaway database (dropped after this file, engines closed), so a
  // second run, or another suite running at the same time, never sees this one's collections.
  // A standalone server cannot roll back: set MONGODB_TRANSACTIONS=0 to skip those cases there.
  runEngineContract('mongo', () => testEngine(), { rollback: process.env.MONGODB_TRANSACTIONS !== '0' });
} else {
  describe.skip('Engine contract: mongo (skipped: set MONGODB_URI=mongodb://host:27017/test?replicaSet=rs0 to run it)', () => {
    it('needs a MongoDB server', () => undefined);
  });
}
