import { mongoEngine } from '../../lib/engine';
import { runEngineContract } from './contract';

const uri = process.env.MONGODB_URI;

if (uri) {
  // A standalone server has no transactions: set MONGODB_TRANSACTIONS=0 to run on one anyway (the engine's unsafe
  // `transactions: false`) and skip the rollback cases.
  const transactions = process.env.MONGODB_TRANSACTIONS !== '0';
  runEngineContract('mongo', () => mongoEngine({ uri, transactions }), { rollback: transactions });
} else {
  describe.skip('Engine contract: mongo (skipped: set MONGODB_URI=mongodb://host:27017/test?replicaSet=rs0 to run it)', () => {
    it('needs a MongoDB server', () => undefined);
  });
}
