import { memoryEngine } from '../../lib/engine';
import { runEngineContract } from './contract';

runEngineContract('memory', () => memoryEngine());
