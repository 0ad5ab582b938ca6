import type { JsonSchema } from './schemas';

const bool = { type: 'boolean' } as const;
const str = { type: 'string' } as const;
const flags = (names: readonly string[]): JsonSchema => ({
  type: 'object',
  required: [...names],
  additionalProperties: false,
  properties: Object.fromEntries(names.map((n) => [n, bool])),
});
/** Attributes as schema.json declares them (`type` and its options), by name. */
const attributes: JsonSchema = { type: 'object', additionalProperties: { type: 'object', required: ['type'], properties: { type: str } } };

const contentType: JsonSchema = {
  type: 'object',
  required: ['uid', 'kind', 'singularName', 'pluralName', 'displayName', 'route', 'draftAndPublish', 'localized', 'attributes', 'permissions'],
  additionalProperties: false,
  properties: {
    uid: str, kind: { enum: ['collectionType', 'singleType'] }, singularName: str, pluralName: str, displayName: str,
    route: { ...str, description: 'The REST path segment: /api/<route>' }, draftAndPublish: bool, localized: bool, attributes,
    permissions: flags(['find', 'findOne', 'create', 'update', 'delete', 'publish', 'readDrafts']),
  },
};

const caller: JsonSchema = {
  oneOf: [
    { type: 'null', description: 'The Public role (no Authorization header)' },
    {
      type: 'object', required: ['kind', 'id', 'username', 'email', 'role'], additionalProperties: false,
      properties: {
        kind: { const: 'user' }, id: { type: 'integer' }, username: str, email: str,
        role: { oneOf: [{ type: 'null' }, { type: 'object', required: ['name', 'type'], additionalProperties: false, properties: { name: str, type: str } }] },
      },
    },
    { type: 'object', required: ['kind', 'type'], additionalProperties: false, properties: { kind: { const: 'token' }, type: { enum: ['full-access', 'read-only', 'custom'] } } },
    { type: 'object', required: ['kind', 'subject'], additionalProperties: false, properties: { kind: { const: 'host' }, subject: str } },
  ],
};

/** The answer of `GET /content-router/model` (docs/admin.md). */
const model: JsonSchema = {
  type: 'object',
  required: ['data', 'meta'],
  additionalProperties: false,
  properties: {
    meta: { type: 'object' },
    data: {
      type: 'object',
      required: ['contentTypes', 'components', 'locales', 'media', 'caller'],
      additionalProperties: false,
      properties: {
        contentTypes: { type: 'array', items: contentType },
        components: {
          type: 'array',
          items: { type: 'object', required: ['uid', 'category', 'displayName', 'attributes'], additionalProperties: false, properties: { uid: str, category: str, displayName: str, attributes } },
        },
        locales: {
          type: 'array',
          items: { type: 'object', required: ['code', 'name', 'isDefault'], additionalProperties: false, properties: { code: str, name: str, isDefault: bool } },
        },
        media: flags(['find', 'findOne', 'upload', 'update', 'destroy']),
        caller,
      },
    },
  },
};

/**
 * `GET /content-router/model`: the model and the caller's permissions, as the admin reads them. `errors` gives the
 * error answers of the path (401, 500, 503: any caller may ask).
 */
export function modelPath(errors: Record<string, unknown>): Record<string, Record<string, Record<string, unknown>>> {
  return {
    '/content-router/model': {
      get: {
        operationId: 'content-router.model',
        tags: ['content-router'],
        summary: 'The content types and components the caller may act on, with its permissions (the admin reads it)',
        responses: { 200: { description: 'The model (Cache-Control: no-store)', content: { 'application/json': { schema: model } } }, ...errors },
      },
    },
  };
}
