export * from './types';
export { memoryEngine, type MemoryEngineOptions } from './memory/memory-engine';
export { mongoEngine, type MongoEngineOptions } from './mongo/mongo-engine';
export { MONGODB_MAX_DOCUMENT_BYTES } from './memory/document-size';
