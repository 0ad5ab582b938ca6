import Ajv from 'ajv';

/**
 * The shape of a Strapi content-type or component `schema.json` (checked by ajv before the semantic checks): the
 * types of the keys Strapi reads. Keys are not checked here: Strapi's loader keeps unknown keys, and
 * lib/schema/schema-keys.ts refuses only the certain mistakes among them. `kind` defaults to `collectionType`, as
 * in Strapi's `createContentType` (strapi/strapi packages/core/core/src/domain/content-type/index.ts).
 */
const STRING = { type: 'string' } as const;

const attributesSchema = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    required: ['type'],
    properties: { type: STRING, pluginOptions: { type: 'object' } },
  },
} as const;

export const contentTypeDefinitionSchema = {
  type: 'object',
  required: ['info', 'attributes'],
  properties: {
    uid: STRING,
    kind: { enum: ['collectionType', 'singleType'] },
    collectionName: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
    info: {
      type: 'object',
      required: ['singularName', 'pluralName'],
      properties: {
        singularName: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
        pluralName: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
        displayName: STRING,
      },
    },
    options: { type: 'object', properties: { draftAndPublish: { type: 'boolean' } } },
    pluginOptions: { type: 'object' },
    attributes: attributesSchema,
  },
} as const;

export const componentDefinitionSchema = {
  type: 'object',
  required: ['attributes'],
  properties: {
    collectionName: STRING,
    info: { type: 'object' },
    options: { type: 'object' },
    pluginOptions: { type: 'object' },
    attributes: attributesSchema,
  },
} as const;

const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
export const validateContentTypeDefinition = ajv.compile(contentTypeDefinitionSchema);
export const validateComponentDefinition = ajv.compile(componentDefinitionSchema);
