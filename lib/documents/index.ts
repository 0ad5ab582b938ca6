export { createDocumentService, type Documents, type DocumentServiceOptions, type DocumentWriteOptions } from './document-service';
export type { LifecycleHooks, LifecycleEvent, LifecycleName } from './lifecycle-hooks';
export type { FindManyResult, PaginationMeta } from './read-documents';
