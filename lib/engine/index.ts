export * from './types';
export { remainingTime, withReadBudget } from './read-budget';
export { memoryEngine, type BackupResult, type EmbeddedEngine, type MemoryEngineOptions } from './memory/memory-engine';
export { backupDataFile, repairDataFile, verifyDataFile, type DataFileReport } from './memory/storage/data-file-tools';
export { mongoEngine, type MongoEngineOptions } from './mongo/mongo-engine';
