import Ajv from 'ajv';

/** The shape of a Strapi content-type `schema.json` (checked by ajv before the semantic checks). */
const attributesSchema = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    required: ['type'],
    properties: { type: { type: 'string' } },
  },
} as const;

export const contentTypeDefinitionSchema = {
  type: 'object',
  required: ['kind', 'info', 'attributes'],
  properties: {
    kind: { enum: ['collectionType', 'singleType'] },
    uid: { type: 'string' },
    collectionName: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
    info: {
      type: 'object',
      required: ['singularName', 'pluralName'],
      properties: {
        singularName: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
        pluralName: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
        displayName: { type: 'string' },
      },
    },
    options: { type: 'object' },
    pluginOptions: { type: 'object' },
    attributes: attributesSchema,
  },
} as const;

export const componentDefinitionSchema = {
  type: 'object',
  required: ['attributes'],
  properties: {
    collectionName: { type: 'string' },
    info: { type: 'object' },
    attributes: attributesSchema,
  },
} as const;

const ajv = new Ajv({ allErrors: true, strict: false });
export const validateContentTypeDefinition = ajv.compile(contentTypeDefinitionSchema);
export const validateComponentDefinition = ajv.compile(componentDefinitionSchema);
