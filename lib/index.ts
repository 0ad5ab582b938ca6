/**
 * content-router: a Strapi-v5-compatible REST Content API for Express, on MongoDB or an embedded engine.
 * Everything importable from the package is exported here.
 */
import type { ContentDocument, DocumentInput } from './documents';

export { createContentRouter, type ContentRouter, type ContentRouterOptions } from './create-content-router';
export { generateTypes, type GenerateTypesOptions } from './typegen/generate-types';
export { loadStrapiProject, type StrapiProject, type LoadStrapiProjectOptions, type ProjectNote } from './project';
export type { CorsOptions } from './http/cors';
export type {
  Registry,
  ContentType,
  Component,
  Attribute,
  ScalarAttribute,
  MediaAttribute,
  RelationAttribute,
  ComponentAttribute,
  DynamicZoneAttribute,
  I18nOptions,
  I18nSettings,
  ContentTypeSchema,
  ComponentSchema,
  AttributeSchema,
  CustomFieldsOption,
  CustomFieldOption,
} from './schema';
export type { Query, RestLimits } from './query';

/**
 * The document type of each content type uid, filled in by the generated types (`content-router types`,
 * docs/types.md) through declaration merging: `interface ContentTypes { 'api::article.article': Article }`.
 * Empty until then: every document is a `ContentDocument`.
 */
export interface ContentTypes {}
/** The type of each component uid, filled in by the generated types like `ContentTypes`. */
export interface Components {}
/** What `data` accepts in a create or update of each content type uid, filled in by the generated types. */
export interface ContentTypeInputs {}
/** The document type of a content type uid: its generated type, or `ContentDocument` without one. */
export type DocumentOf<U extends string> = U extends keyof ContentTypes ? ContentTypes[U] : ContentDocument;
/** What `data` accepts for a content type uid: its generated input type, or any object without one. */
export type DocumentInputOf<U extends string> = U extends keyof ContentTypeInputs ? ContentTypeInputs[U] : DocumentInput;
/** The uids `router.documents()` takes: the generated ones when the generated types are in use, any string otherwise. */
export type DocumentUid = [keyof ContentTypes] extends [never] ? string : keyof ContentTypes & string;
export {
  backupDataFile,
  memoryEngine,
  mongoEngine,
  MONGODB_MAX_DOCUMENT_BYTES,
  repairDataFile,
  verifyDataFile,
  type BackupResult,
  type DataFileReport,
  type EmbeddedEngine,
  type Engine,
  type MemoryEngineOptions,
  type MongoEngineOptions,
} from './engine';
export { localProvider, type StorageProvider } from './media';
export { serveUploads } from './http/serve-uploads';
export { createAdmin, type AdminOptions } from './http/create-admin';
export { answerClientErrors } from './http/answer-client-errors';
export { healthCheck } from './http/health-route';
export {
  importStrapiExport,
  exportStrapiExport,
  TransferError,
  formatProgress,
  type ImportOptions,
  type ImportResult,
  type ExportOptions,
  type ExportResult,
  type AssetRef,
  type TransferTarget,
  type ModelTarget,
  type RouterTarget,
  type UploadsOption,
  type OnTransferProgress,
  type TransferProgressEvent,
  type TransferLimits,
} from './transfer';
export type { Logger } from './errors/logger';
export { hashAccessKey, type AuthOptions, type Ability } from './auth';
export type { UsersOptions, UsersRoleOption, UsersEmail, UsersEmailSender, UsersSessionsOption, UsersProviderOption } from './users-permissions';
export type {
  DocumentService,
  ContentDocument,
  /** The Document Service's former name, kept: the same type as DocumentService. */
  DocumentService as Documents,
  DocumentInput,
  DocumentQueryParams,
  DocumentFilters,
  DocumentFields,
  DocumentPopulate,
  DocumentSort,
  ScalarFilter,
  ScalarCondition,
  SortOrder,
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
export {
  WEBHOOK_EVENTS,
  type WebhooksOptions,
  type WebhookDefinition,
  type WebhookChanges,
  type Webhook,
  type WebhooksApi,
  type WebhookEventName,
  type EventPayload,
  type EntryEventPayload,
  type MediaEventPayload,
  type EventListener,
  type Delivery,
  type DeliveryState,
} from './webhooks';
export type { RoutesOptions, RouteQueryConfig, RouteAction } from './http/route-defaults';
export type { CacheControlOptions, CachePolicy, SharedCachePolicy, ReadRoute } from './http/cache-control';
export type { ResponseCacheOptions } from './cache/response-cache';
export type { CacheTagsOptions, CacheTagHeader } from './cache/cache-tags';
export type { CachePurgeEvent, CachePurgeListener } from './cache/purge-tracker';
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
