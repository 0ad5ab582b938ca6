import { mongoEngine } from '../../lib/engine';
import { runEngineContract } from './contract';

const uri = process.env.MONGODB_URI;

if (uri) {
  // A standalone server cannot roll back: set MONGODB_TRANSACTIONS=0 to skip those cases there.
  runEngineContract('mongo', () => mongoEngine({ uri }), { rollback: process.env.MONGODB_TRANSACTIONS !== '0' });
} else {
  describe.skip('Engine contract: mongo (skipped: set MONGODB_URI=mongodb://host:27017/test?replicaSet=rs0 to run it)', () => {
    it('needs a MongoDB server', () => undefined);
  });
}
