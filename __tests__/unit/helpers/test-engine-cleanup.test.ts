import type { Engine } from '../../../lib';
import { afterTestFile } from '../../helpers/after-test-file';
import { testEngine } from '../../helpers/test-engine';

/**
 * The test engines are closed and their data dropped after the file's own `afterAll` hooks, which may still read
 * (issue 24: a clean-up declared by the helper at import time ran first, and on MongoDB the database was gone).
 * The memory engine's clean-up drops its data too, so this file fails on either engine if the order regresses.
 */
let engine: Engine;
const ROWS = 'cleanup_order_rows';

beforeAll(async () => {
  engine = testEngine();
  // Registered after the helper's clean-up (the first testEngine() of the file registers it), so it runs once that
  // has finished: the memory engine is then empty (a closed MongoDB engine cannot be asked).
  if (!process.env.MONGODB_URI) afterTestFile(expectNothingLeft);
  await engine.init([{ name: ROWS, indexes: [] }]);
  await engine.insertMany(ROWS, [{ id: await engine.nextId(ROWS) }]);
});

afterAll(async () => {
  // The suite's own afterAll: the engine is still open and its row still there.
  expect(await engine.count(ROWS, {})).toBe(1);
});

async function expectNothingLeft(): Promise<void> {
  const left = { rows: await engine.count(ROWS, {}), counters: await engine.count('counters', {}) };
  if (left.rows !== 0 || left.counters !== 0) throw new Error(`the test engine's clean-up left data behind: ${JSON.stringify(left)}`);
}

describe('test engine clean-up order', () => {
  it('keeps the row inserted in beforeAll for the tests', async () => {
    expect(await engine.count(ROWS, {})).toBe(1);
  });
});
