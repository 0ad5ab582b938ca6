export * from './types';
export { memoryEngine, type MemoryEngineOptions } from './memory/memory-engine';
