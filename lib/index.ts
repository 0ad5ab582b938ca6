/**
 * content-router: a Strapi-v5-compatible REST Content API for Express, on MongoDB or an embedded engine.
 * Everything importable from the package is exported here.
 */
export { createContentRouter, type ContentRouter, type ContentRouterOptions } from './create-content-router';
export { memoryEngine, mongoEngine, MONGODB_MAX_DOCUMENT_BYTES, type Engine, type MemoryEngineOptions, type MongoEngineOptions } from './engine';
export { localProvider, type StorageProvider } from './media';
export { serveUploads } from './http/serve-uploads';
export { hashAccessKey, type AuthOptions, type Ability } from './auth';
export type {
  DocumentService,
  ContentDocument,
  /** The Document Service's former name, kept: the same type as DocumentService. */
  DocumentService as Documents,
  DocumentQueryParams,
  DocumentCreateParams,
  DocumentUpdateParams,
  DocumentFindOneParams,
  DocumentTargetParams,
  DocumentVersions,
  DocumentWriteOptions,
  FindManyResult,
  LifecycleHooks,
  LifecycleEvent,
} from './documents';
export type { UploadOptions } from './http/upload-routes';
export type { RoutesOptions, RouteQueryConfig, RouteAction } from './http/route-defaults';
export type { ErrorContext, OnError } from './http/report-error';
export { createOpenApiDocument, type OpenApiDocument, type OpenApiDocumentOptions } from './openapi';
export type { OpenApiOption } from './http/openapi-route';
export {
  ApplicationError,
  ValidationError,
  PaginationError,
  ForbiddenError,
  UnauthorizedError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  ConfigurationError,
} from './errors';
