import Ajv from 'ajv';

/**
 * The shape of a Strapi content-type or component `schema.json` (checked by ajv before the semantic checks).
 * Unknown keys are refused (a typo such as `requried` would otherwise be ignored silently); the lists hold every
 * key Strapi 5 documents or writes (docs.strapi.io/cms/backend-customization/models, and @strapi/types'
 * `schema/attribute/options.d.ts`), plus the keys Strapi adds to a loaded model (`modelType`, `globalId`, ...)
 * so that `strapi.contentTypes[uid]` objects load too. `pluginOptions` stays free-form.
 */
const ANY = {} as const;
const STRING = { type: 'string' } as const;

/** Every key an attribute may carry (whatever its type); see the TSDoc above. */
export const ATTRIBUTE_KEYS = [
  'type', 'required', 'private', 'unique', 'default', 'configurable', 'writable', 'visible', 'searchable',
  'min', 'max', 'minLength', 'maxLength', 'regex', 'enum', 'enumName', 'targetField', 'options', 'pluginOptions',
  'customField', 'conditions', 'column', 'useJoinTable', 'relation', 'target', 'inversedBy', 'mappedBy', 'morphBy',
  'morphColumn', 'joinTable', 'joinColumn', 'component', 'repeatable', 'components', 'multiple', 'allowedTypes',
  'autoPopulate',
] as const;

const attributesSchema = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    required: ['type'],
    additionalProperties: false,
    properties: { ...Object.fromEntries(ATTRIBUTE_KEYS.map((k) => [k, ANY])), type: STRING, pluginOptions: { type: 'object' } },
  },
} as const;

const LOADED_MODEL_KEYS = { uid: STRING, modelType: ANY, modelName: ANY, globalId: ANY, apiName: ANY, plugin: ANY, __schema__: ANY, __filename__: ANY } as const;

const modelOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { draftAndPublish: { type: 'boolean' }, populateCreatorFields: ANY, privateAttributes: ANY, comment: ANY, increments: ANY, timestamps: ANY },
} as const;

export const contentTypeDefinitionSchema = {
  type: 'object',
  required: ['kind', 'info', 'attributes'],
  additionalProperties: false,
  properties: {
    kind: { enum: ['collectionType', 'singleType'] },
    collectionName: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
    info: {
      type: 'object',
      required: ['singularName', 'pluralName'],
      additionalProperties: false,
      properties: {
        singularName: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
        pluralName: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
        displayName: STRING,
        description: ANY,
        icon: ANY,
        name: ANY,
      },
    },
    options: modelOptionsSchema,
    pluginOptions: { type: 'object' },
    attributes: attributesSchema,
    ...LOADED_MODEL_KEYS,
  },
} as const;

export const componentDefinitionSchema = {
  type: 'object',
  required: ['attributes'],
  additionalProperties: false,
  properties: {
    collectionName: STRING,
    info: { type: 'object', additionalProperties: false, properties: { displayName: ANY, icon: ANY, description: ANY, name: ANY } },
    options: { type: 'object' },
    pluginOptions: { type: 'object' },
    config: ANY,
    category: ANY,
    attributes: attributesSchema,
    ...LOADED_MODEL_KEYS,
  },
} as const;

const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
export const validateContentTypeDefinition = ajv.compile(contentTypeDefinitionSchema);
export const validateComponentDefinition = ajv.compile(componentDefinitionSchema);
