import { memoryEngine, type Engine } from '../../lib/engine';
import { bareTestEngine } from '../helpers/test-engine';

/**
 * The engines the contract suite runs on, one factory per engine test file, both BARE: the contract's own
 * pipelines test operator semantics (pipeline-only lookups, joins on fields without a declared index) and are
 * deliberately not index-eligible, so the index check of the HTTP suites (`testEngine()`) would refuse them
 * before they reach MongoDB (issue 24). The compiler's pipelines stay index-checked where they run: the HTTP
 * suites and the conformance replay. `contract-engines.test.ts` guards both factories.
 *
 * @example
 * runEngineContract('memory', CONTRACT_ENGINES.memory);
 */
export const CONTRACT_ENGINES: Readonly<Record<'memory' | 'mongo', () => Engine>> = {
  memory: () => memoryEngine({ ephemeral: true }),
  // Its own throwaway database (MONGODB_URI), closed and dropped after the test file.
  mongo: () => bareTestEngine(),
};
