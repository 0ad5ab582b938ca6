export { createDocumentService, type Documents, type DocumentServiceOptions, type DocumentWriteOptions } from './document-service';
export type { LifecycleHooks, LifecycleEvent, LifecycleName, DocumentEventName, DocumentEvents } from './lifecycle-hooks';
export type { FindManyResult, PaginationMeta } from './read-documents';
export {
  documentServices,
  strapiDocuments,
  type DocumentService,
  type ContentDocument,
  type DocumentInput,
  type DocumentCreateParams,
  type DocumentUpdateParams,
  type DocumentFindOneParams,
  type DocumentTargetParams,
  type DocumentVersions,
} from './strapi-documents';
export type {
  DocumentQueryParams,
  DocumentFilters,
  DocumentFields,
  DocumentPopulate,
  DocumentSort,
  ScalarFilter,
  ScalarCondition,
  SortOrder,
} from './typed-params';
