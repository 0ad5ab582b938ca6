import type { ContentType, Registry } from '../schema';
import { filesParameters, routeParameters, type Parameter } from './parameters';
import { typeSchemaName, type JsonSchema } from './schemas';
import { usersPaths } from './users-paths';
import { modelPath } from './model-path';

/** An OpenAPI 3.1 Operation Object. */
export type Operation = Record<string, unknown>;
type PathItem = Record<string, Operation | Parameter[]>;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const response = (description: string, schema: JsonSchema) => ({ description, content: json(schema) });

const ERRORS: Record<string, string> = {
  400: 'ValidationError: a bad query parameter or body (details.errors name each key)',
  401: 'UnauthorizedError: an unknown or expired API token',
  403: 'ForbiddenError: the caller may not do this',
  404: 'NotFoundError',
  413: 'PayloadTooLargeError: a body above bodyLimit',
  500: 'InternalServerError (no details)',
  503: 'ServiceUnavailableError: the engine is starting or unreachable (Retry-After)',
};

function errors(codes: readonly number[]): Record<string, unknown> {
  return Object.fromEntries(codes.map((c) => [String(c), response(ERRORS[c]!, ref('Error'))]));
}

const COMMON = [401, 403, 500, 503] as const;
const one = (name: string): JsonSchema => ({ type: 'object', required: ['data', 'meta'], properties: { data: ref(name), meta: { type: 'object' } }, additionalProperties: false });
const many = (name: string): JsonSchema => ({
  type: 'object', required: ['data', 'meta'], additionalProperties: false,
  properties: { data: { type: 'array', items: ref(name) }, meta: { type: 'object', properties: { pagination: ref('Pagination') } } },
});

function operation(ct: ContentType, action: string, summary: string, extra: Operation): Operation {
  return { operationId: `${ct.uid}.${action}`, tags: [ct.uid], summary, 'x-strapi-action': `${ct.uid}.${action}`, ...extra };
}

function collectionPaths(registry: Registry, ct: ContentType, maxLimit: number): Record<string, PathItem> {
  const name = typeSchemaName(ct.uid);
  const body = { required: true, content: json(ref(`${name}Input`)) };
  const id: Parameter = { name: 'documentId', in: 'path', required: true, schema: { type: 'string' } };
  return {
    [`/${ct.pluralName}`]: {
      get: operation(ct, 'find', `List ${ct.pluralName}`, { parameters: routeParameters(registry, ct, 'find', maxLimit), responses: { 200: response('The page of documents', many(name)), ...errors([400, ...COMMON]) } }),
      post: operation(ct, 'create', `Create a ${ct.singularName}`, { parameters: routeParameters(registry, ct, 'write', maxLimit), requestBody: body, responses: { 201: response('The created document', one(name)), ...errors([400, 413, ...COMMON]) } }),
    },
    [`/${ct.pluralName}/{documentId}`]: {
      parameters: [id],
      get: operation(ct, 'findOne', `Get a ${ct.singularName}`, { parameters: routeParameters(registry, ct, 'findOne', maxLimit), responses: { 200: response('The document', one(name)), ...errors([400, 404, ...COMMON]) } }),
      put: operation(ct, 'update', `Update a ${ct.singularName}`, { parameters: routeParameters(registry, ct, 'write', maxLimit), requestBody: body, responses: { 200: response('The updated document', one(name)), ...errors([400, 404, 413, ...COMMON]) } }),
      delete: operation(ct, 'delete', `Delete a ${ct.singularName}`, { parameters: routeParameters(registry, ct, 'delete', maxLimit), responses: { 204: { description: 'Deleted (no body)' }, ...errors([400, 404, ...COMMON]) } }),
    },
  };
}

function singlePaths(registry: Registry, ct: ContentType, maxLimit: number): Record<string, PathItem> {
  const name = typeSchemaName(ct.uid);
  return {
    [`/${ct.singularName}`]: {
      get: operation(ct, 'find', `Get the ${ct.singularName}`, { parameters: routeParameters(registry, ct, 'findOne', maxLimit), responses: { 200: response('The document', one(name)), ...errors([400, 404, ...COMMON]) } }),
      put: operation(ct, 'update', `Create or update the ${ct.singularName}`, { parameters: routeParameters(registry, ct, 'write', maxLimit), requestBody: { required: true, content: json(ref(`${name}Input`)) }, responses: { 200: response('The document', one(name)), ...errors([400, 413, ...COMMON]) } }),
      delete: operation(ct, 'delete', `Delete the ${ct.singularName}`, { parameters: routeParameters(registry, ct, 'delete', maxLimit), responses: { 204: { description: 'Deleted (no body)' }, ...errors([400, 404, ...COMMON]) } }),
    },
  };
}

/** `POST .../actions/unpublish|discard-draft` of a draft & publish type (the admin's; `update` grant; the draft answered). */
function documentActionPaths(registry: Registry, ct: ContentType): Record<string, PathItem> {
  const base = ct.kind === 'collectionType' ? `/${ct.pluralName}/{documentId}/actions` : `/${ct.singularName}/actions`;
  const parameters: Parameter[] = [
    ...(ct.kind === 'collectionType' ? [{ name: 'documentId', in: 'path', required: true, schema: { type: 'string' } } as Parameter] : []),
    ...(ct.localized ? [{ name: 'locale', in: 'query', required: false, schema: { enum: [...registry.i18n.locales] } } as Parameter] : []),
  ];
  const act = (action: string, summary: string): PathItem => ({
    post: { operationId: `${ct.uid}.${action}`, tags: [ct.uid], summary, 'x-strapi-action': `${ct.uid}.update`, parameters, responses: { 200: response('The draft', one(typeSchemaName(ct.uid))), ...errors([400, 404, ...COMMON]) } },
  });
  return {
    [`${base}/unpublish`]: act('unpublish', `Unpublish the ${ct.singularName} (the draft stays)`),
    [`${base}/discard-draft`]: act('discardDraft', `Replace the ${ct.singularName}'s draft by its published version`),
  };
}

function uploadPaths(maxLimit: number): Record<string, PathItem> {
  const tag = (action: string, summary: string, extra: Operation): Operation => ({ operationId: `plugin::upload.content-api.${action}`, tags: ['plugin::upload'], summary, 'x-strapi-action': `plugin::upload.content-api.${action}`, ...extra });
  const fileId: Parameter = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
  const files = { type: 'array', items: ref('UploadFile') };
  const multipart = {
    'multipart/form-data': {
      schema: {
        type: 'object',
        properties: {
          files: { anyOf: [{ type: 'string', contentMediaType: 'application/octet-stream' }, { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } }] },
          fileInfo: { type: 'string', description: 'JSON `{ name, alternativeText, caption }` (one per file, or an array)' },
        },
      },
    },
    'application/json': { schema: { type: 'object', properties: { fileInfo: { type: 'object' } } } },
  };
  return {
    '/upload': {
      post: tag('upload', 'Upload files, or (with ?id=) update a file\'s info or replace its content', {
        parameters: [{ name: 'id', in: 'query', required: false, schema: { type: 'integer', minimum: 1 }, description: 'The file to update or replace' }],
        requestBody: { required: true, content: multipart },
        responses: { 201: response('The uploaded files', files), 200: response('The updated file (?id=)', ref('UploadFile')), ...errors([400, 404, 413, ...COMMON]) },
      }),
    },
    '/upload/files': { get: tag('find', 'List files', { parameters: filesParameters(maxLimit), responses: { 200: response('The files', files), ...errors([400, ...COMMON]) } }) },
    '/upload/files/{id}': {
      parameters: [fileId],
      get: tag('findOne', 'Get a file', { responses: { 200: response('The file', ref('UploadFile')), ...errors([404, ...COMMON]) } }),
      delete: tag('destroy', 'Delete a file (detached from every document)', { responses: { 200: response('The deleted file', ref('UploadFile')), ...errors([404, ...COMMON]) } }),
    },
  };
}

const localesPath: Record<string, PathItem> = {
  '/i18n/locales': {
    get: { operationId: 'plugin::i18n.locales.listLocales', tags: ['plugin::i18n'], summary: 'List the configured locales', 'x-strapi-action': 'plugin::i18n.locales.listLocales', responses: { 200: response('The locales', { type: 'array', items: ref('Locale') }), ...errors([...COMMON]) } },
  },
};

/** Every route of the router: content types (collection and single), the media library, the locales, users-permissions, the model. */
export function routerPaths(registry: Registry, options: { maxLimit: number; upload: boolean }): Record<string, PathItem> {
  let paths: Record<string, PathItem> = { ...localesPath, ...usersPaths(registry, options.maxLimit), ...modelPath(errors([401, 500, 503])) };
  if (options.upload) paths = { ...paths, ...uploadPaths(options.maxLimit) };
  for (const ct of registry.contentTypes.values()) {
    if (ct.internal) continue;
    paths = { ...paths, ...(ct.kind === 'collectionType' ? collectionPaths(registry, ct, options.maxLimit) : singlePaths(registry, ct, options.maxLimit)) };
    if (ct.draftAndPublish) paths = { ...paths, ...documentActionPaths(registry, ct) };
  }
  return paths;
}
