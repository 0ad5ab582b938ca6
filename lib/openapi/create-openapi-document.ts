import type { Registry } from '../schema';
import { routerPaths } from './paths';
import { registrySchemas, type JsonSchema } from './schemas';

/** Options of `router.openapi()` / `createOpenApiDocument`. */
export interface OpenApiDocumentOptions {
  /** Where the router is mounted, as the document's server URL; default `/api`. */
  serverUrl?: string;
  /** `info.title`; default `Content API`. */
  title?: string;
  /** `info.version` (the version of the API, not of OpenAPI); default `1.0.0`. */
  version?: string;
}

/** An OpenAPI 3.1 document (plain JSON). */
export type OpenApiDocument = Record<string, unknown> & { openapi: '3.1.0'; paths: Record<string, unknown>; components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> } };

const envelopes: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    required: ['data', 'error'],
    additionalProperties: false,
    properties: {
      data: { type: 'null' },
      error: {
        type: 'object',
        required: ['status', 'name', 'message'],
        additionalProperties: false,
        properties: { status: { type: 'integer' }, name: { type: 'string' }, message: { type: 'string' }, details: { type: 'object' } },
      },
    },
  },
  Pagination: {
    anyOf: [
      { type: 'object', required: ['page', 'pageSize'], additionalProperties: false, properties: { page: { type: 'integer' }, pageSize: { type: 'integer' }, pageCount: { type: 'integer' }, total: { type: 'integer' } } },
      { type: 'object', required: ['start', 'limit'], additionalProperties: false, properties: { start: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' } } },
      { type: 'object', required: ['limit', 'nextCursor'], additionalProperties: false, properties: { limit: { type: 'integer' }, nextCursor: { type: ['string', 'null'] }, total: { type: 'integer' } } },
    ],
  },
  RelationCount: { type: 'object', required: ['count'], additionalProperties: false, properties: { count: { type: 'integer' } } },
  Locale: {
    type: 'object',
    required: ['id', 'documentId', 'name', 'code', 'isDefault'],
    additionalProperties: false,
    properties: {
      id: { type: 'integer' }, documentId: { type: 'string' }, name: { type: 'string' }, code: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' }, updatedAt: { type: 'string', format: 'date-time' }, publishedAt: { type: 'string', format: 'date-time' }, isDefault: { type: 'boolean' },
    },
  },
};

/**
 * The OpenAPI 3.1 document of the Content API a registry serves: every route of every content type, the media
 * library (when `upload` is on), the locales route, the query parameters, request bodies, the data/meta answers
 * with each type's document schema, the Strapi error envelope, and API tokens as bearer authentication.
 *
 * @example
 * const doc = createOpenApiDocument(registry, { maxLimit: 100, upload: true }, { serverUrl: '/api' });
 * doc.paths['/articles']; // { get: { operationId: 'api::article.article.find', ... }, post: ... }
 */
export function createOpenApiDocument(registry: Registry, router: { maxLimit: number; upload: boolean }, options: OpenApiDocumentOptions = {}): OpenApiDocument {
  // A copy: the caller may change its document without changing the next one (schemas and parameters are shared constants).
  return structuredClone({
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'Content API',
      version: options.version ?? '1.0.0',
      description: 'A Strapi v5 REST Content API (content-router). Answers are `{ data, meta }`; errors are `{ data: null, error: { status, name, message, details } }`.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: options.serverUrl ?? '/api' }],
    // An API token (Authorization: Bearer <token>), or nothing: the Public role's permissions.
    security: [{ apiToken: [] }, {}],
    paths: routerPaths(registry, router),
    components: {
      schemas: { ...envelopes, ...registrySchemas(registry) },
      securitySchemes: { apiToken: { type: 'http', scheme: 'bearer', description: 'A Strapi API token (auth.apiTokens), or what auth.resolve recognises' } },
    },
  } as const) as unknown as OpenApiDocument;
}
