import Ajv from 'ajv';
import { ConfigurationError } from '../errors';
import { checkCustomFieldUids, CUSTOM_FIELD_TYPES } from '../schema/custom-fields';
import { ajvErrorMessage, pickAjvError } from '../errors/ajv-message';
import { checkPreviewOption, previewOptionSchema, type PreviewOptions } from './preview-option';
import { cacheControlSchema } from './cache-control-schema';
import { cacheTagsSchema } from './cache-tags-schema';

const positiveInteger = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const stringOrList = { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] } as const;

/**
 * Every option of createContentRouter. Each object says `additionalProperties: false`, so a misspelled key is
 * refused with a did-you-mean (lib/errors/ajv-message.ts); a new option is one more entry in `properties`.
 * Parts with rules of their own (auth, the engine, i18n's locales, routes) are checked again by their owners.
 */
export const routerOptionsSchema = {
  type: 'object',
  required: ['contentTypes'],
  additionalProperties: false,
  properties: {
    contentTypes: { type: 'array' },
    components: { type: 'object' },
    customFields: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['type'],
        additionalProperties: false,
        properties: { type: { enum: CUSTOM_FIELD_TYPES }, name: { type: 'string' }, plugin: { type: 'string' }, inputSize: { type: 'object' } },
      },
    },
    engine: { type: 'object' },
    rest: {
      type: 'object',
      additionalProperties: false,
      properties: {
        defaultLimit: positiveInteger,
        maxLimit: positiveInteger,
        maxDepth: { type: 'integer', minimum: 1 },
        maxJoinedRows: { type: 'integer', minimum: 1 },
        populatePagination: { type: 'boolean' },
        cursorPagination: { type: 'boolean' },
        cursorSecret: { type: 'string', minLength: 16 },
      },
    },
    i18n: {
      type: 'object',
      additionalProperties: false,
      properties: { locales: {}, defaultLocale: { type: 'string' } },
    },
    auth: { type: 'object' },
    upload: {
      anyOf: [
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            provider: { type: 'object' },
            directory: { type: 'string', minLength: 1 },
            sizeLimit: { type: 'number', exclusiveMinimum: 0 },
            breakpoints: { type: 'object', additionalProperties: { type: 'number', exclusiveMinimum: 0 } },
            maxFiles: positiveInteger,
            maxPixels: { type: 'number', exclusiveMinimum: 0 },
            maxRequestPixels: { type: 'number', exclusiveMinimum: 0 },
            sharp: {
              anyOf: [
                { type: 'object', additionalProperties: false, properties: { cache: { type: 'boolean' }, concurrency: { type: 'integer', minimum: 0 } } },
                { const: false },
              ],
            },
          },
        },
        { const: false },
      ],
    },
    bodyLimit: { type: ['string', 'integer'] },
    documentId: {},
    lifecycles: { type: 'object' },
    routes: { type: 'object' },
    cacheControl: cacheControlSchema,
    responseCache: { anyOf: [{ type: 'object', required: ['maxBytes'], additionalProperties: false, properties: { maxBytes: { type: 'integer', minimum: 1024, maximum: Number.MAX_SAFE_INTEGER }, shared: { type: 'boolean' } } }, { const: false }] },
    cacheTags: cacheTagsSchema,
    onError: {},
    readyWaitMS: { type: 'integer', minimum: 0, maximum: 2147483647 },
    logger: {},
    webhooks: { type: 'object' },
    cors: {
      anyOf: [
        { type: 'boolean' },
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            origin: {},
            methods: stringOrList,
            headers: stringOrList,
            expose: stringOrList,
            maxAge: { type: 'integer', minimum: 0, maximum: 2147483647 },
            credentials: { type: 'boolean' },
            keepHeadersOnError: { type: 'boolean' },
          },
        },
      ],
    },
    preview: previewOptionSchema,
    openapi: {
      anyOf: [
        { type: 'boolean' },
        {
          type: 'object',
          additionalProperties: false,
          properties: { path: { type: 'string', pattern: '^/' }, public: { type: 'boolean' }, serverUrl: { type: 'string' }, title: { type: 'string' }, version: { type: 'string' } },
        },
      ],
    },
  },
} as const;

const validate = new Ajv({ allErrors: true, strict: false, verbose: true }).compile(routerOptionsSchema);

function invalid(message: string): never {
  throw new ConfigurationError('CR_INVALID_OPTIONS', message);
}

/**
 * Checks the top-level options of createContentRouter (the parts have their own validators): unknown keys
 * (named, with a did-you-mean), types, ranges, enums (listing the allowed values).
 *
 * @example
 * validateRouterOptions({ contentTypes: [], restt: {} }); // throws 'CR_INVALID_OPTIONS: options.restt: unknown option (did you mean "rest"?); ...'
 */
export function validateRouterOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) invalid('options must be an object');
  if (!validate(options)) {
    const error = pickAjvError(validate.errors ?? []);
    invalid(error ? ajvErrorMessage('options', error, 'option') : 'options are invalid');
  }
  checkCustomFieldUids((options as { customFields?: object }).customFields);
  const o = options as { cors?: unknown; engine?: { aggregate?: unknown }; rest?: { defaultLimit?: number; maxLimit?: number }; onError?: unknown; documentId?: unknown; logger?: unknown };
  const preview = checkPreviewOption((options as { preview?: PreviewOptions | false }).preview);
  if (preview) invalid(preview);
  if (o.engine !== undefined && typeof o.engine.aggregate !== 'function') {
    invalid('options.engine must be an Engine (memoryEngine() or mongoEngine())');
  }
  if (o.onError !== undefined && typeof o.onError !== 'function') {
    invalid('options.onError must be a function (error, context) => void');
  }
  if (o.logger !== undefined && o.logger !== false && !isLogger(o.logger)) {
    invalid('options.logger must be false or a logger with info, warn and error methods (console, pino, winston)');
  }
  if (o.documentId !== undefined && typeof o.documentId !== 'function') {
    invalid('options.documentId must be a function () => string');
  }
  const origin = (o.cors as { origin?: unknown } | undefined)?.origin;
  if (origin !== undefined && typeof origin !== 'function' && !(typeof origin === 'string') && !(Array.isArray(origin) && origin.every((x) => typeof x === 'string'))) {
    invalid('options.cors.origin must be a string (\'*\', an origin, or origins separated by commas), an array of origins, or a function (req) => either');
  }
  if (o.rest?.defaultLimit && o.rest.maxLimit && o.rest.defaultLimit > o.rest.maxLimit) {
    invalid('options.rest.defaultLimit must not exceed options.rest.maxLimit');
  }
}

function isLogger(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const l = value as Record<string, unknown>;
  return typeof l.info === 'function' && typeof l.warn === 'function' && typeof l.error === 'function';
}
