export * from './types';
export { memoryEngine, type MemoryEngineOptions } from './memory/memory-engine';
export { mongoEngine, type MongoEngineOptions } from './mongo/mongo-engine';
