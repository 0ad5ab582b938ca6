import Ajv from 'ajv';
import { ConfigurationError } from '../errors';

const schema = {
  type: 'object',
  required: ['contentTypes'],
  properties: {
    contentTypes: { type: 'array' },
    components: { type: 'object' },
    engine: { type: 'object' },
    rest: {
      type: 'object',
      additionalProperties: false,
      properties: {
        defaultLimit: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        maxLimit: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        maxDepth: { type: 'integer', minimum: 1 },
        maxJoinedRows: { type: 'integer', minimum: 1 },
      },
    },
    i18n: { type: 'object' },
    auth: { type: 'object' },
    upload: { anyOf: [{ type: 'object' }, { const: false }] },
    bodyLimit: { type: ['string', 'integer'] },
    lifecycles: { type: 'object' },
    routes: { type: 'object' },
    readyWaitMS: { type: 'integer', minimum: 0, maximum: 2147483647 },
  },
} as const;

const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

/** Checks the top-level options of createContentRouter (the parts have their own validators). */
export function validateRouterOptions(options: unknown): void {
  if (!validate(options)) {
    const detail = (validate.errors ?? []).map((e) => `options${e.instancePath.replace(/\//g, '.')} ${e.message ?? ''}`).join('; ');
    throw new ConfigurationError('CR_INVALID_OPTIONS', detail);
  }
  const o = options as { engine?: { aggregate?: unknown }; rest?: { defaultLimit?: number; maxLimit?: number }; onError?: unknown };
  if (o.engine !== undefined && typeof o.engine.aggregate !== 'function') {
    throw new ConfigurationError('CR_INVALID_OPTIONS', 'options.engine must be an Engine (memoryEngine() or mongoEngine())');
  }
  if (o.onError !== undefined && typeof o.onError !== 'function') {
    throw new ConfigurationError('CR_INVALID_OPTIONS', 'options.onError must be a function (error, context) => void');
  }
  if (o.rest?.defaultLimit && o.rest.maxLimit && o.rest.defaultLimit > o.rest.maxLimit) {
    throw new ConfigurationError('CR_INVALID_OPTIONS', 'options.rest.defaultLimit must not exceed options.rest.maxLimit');
  }
}
