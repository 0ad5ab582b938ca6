import Ajv from 'ajv';
import { ConfigurationError, ValidationError } from '../errors';
import { ajvErrorMessage, pickAjvError } from '../errors/ajv-message';
import { WEBHOOK_EVENTS, type WebhookEventName } from './event-names';

/** One webhook: where to POST which events (Strapi's webhook: `url`, `headers`, `events`, `isEnabled`). */
export interface WebhookDefinition {
  /** A stable id of your choice (`'search-index'`): the key the host API and the deliveries use. */
  id: string;
  /** A label for people; default the id. */
  name?: string;
  /** An `http:` or `https:` URL. */
  url: string;
  /** Headers sent with every call (`Authorization` for the receiver), after `defaultHeaders`. */
  headers?: Record<string, string>;
  /** The events it receives; default every one (docs/webhooks.md). */
  events?: WebhookEventName[];
  /** Default true; a disabled webhook gets no calls (its pending deliveries are dropped). */
  enabled?: boolean;
  /** Signs every call (HMAC-SHA256, the Standard Webhooks scheme: docs/webhooks.md#signatures). */
  secret?: string;
  /** How long one call may take (ms); default `webhooks.timeoutMS`. */
  timeoutMS?: number;
}

/** The `webhooks` option: webhooks configured in code and how deliveries run. */
export interface WebhooksOptions {
  /** Webhooks written to storage at start-up (docs/webhooks.md#configuration); the host API adds more at run time. */
  endpoints?: WebhookDefinition[];
  /** Headers of every call, before each webhook's own (Strapi's `server.webhooks.defaultHeaders`). */
  defaultHeaders?: Record<string, string>;
  /** How long one call may take before it counts as failed (ms); default 10000 (Strapi's). */
  timeoutMS?: number;
  /** Calls per delivery before it is given up (`failed`); default 12. */
  maxAttempts?: number;
  /** The wait before the first retry (ms), doubled for each next one; default 2000. */
  backoffMS?: number;
  /** The longest wait between two attempts (ms); default 3600000 (an hour). */
  maxBackoffMS?: number;
  /** Calls in flight at once from this instance (Strapi: 5); default 5. */
  concurrency?: number;
  /** How long a claimed delivery belongs to its instance (ms); default the webhook's timeout + 5000. */
  leaseMS?: number;
  /** How often the instance looks for due deliveries and webhook changes made by other instances (ms); default 1000. */
  pollMS?: number;
  /** Finished deliveries kept for `router.webhooks.deliveries()`; default 1000. */
  history?: number;
  /** The largest body stored and sent (bytes); a bigger entry is sent without its relations (docs/webhooks.md); default 4 MiB. */
  maxBodyBytes?: number;
}

/** The delivery settings with their defaults. */
export type WebhookSettings = Readonly<Required<Omit<WebhooksOptions, 'endpoints' | 'leaseMS'>> & { leaseMS: number | undefined }>;

const headers = { type: 'object', additionalProperties: { type: 'string' }, propertyNames: { pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" } } as const;
const positive = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;

const definitionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'url'],
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 200 },
    name: { type: 'string' },
    url: { type: 'string', pattern: '^https?://' },
    headers,
    events: { type: 'array', items: { enum: WEBHOOK_EVENTS }, uniqueItems: true },
    enabled: { type: 'boolean' },
    secret: { type: 'string', minLength: 1 },
    timeoutMS: positive,
  },
} as const;

const optionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    endpoints: { type: 'array', items: definitionSchema },
    defaultHeaders: headers,
    timeoutMS: positive,
    maxAttempts: { type: 'integer', minimum: 1, maximum: 1000 },
    backoffMS: positive,
    maxBackoffMS: positive,
    concurrency: { type: 'integer', minimum: 1, maximum: 1000 },
    leaseMS: positive,
    pollMS: positive,
    history: { type: 'integer', minimum: 0, maximum: 10_000_000 },
    maxBodyBytes: { type: 'integer', minimum: 1024, maximum: 15 * 1024 * 1024 },
  },
} as const;

const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
const validateOptions = ajv.compile(optionsSchema);
const validateDefinition = ajv.compile(definitionSchema);
/** `update()`'s changes: any key but `id`; `secret: null` and `timeoutMS: null` remove them. */
const validateChanges = ajv.compile({
  ...definitionSchema,
  required: [],
  properties: { ...definitionSchema.properties, secret: { type: ['string', 'null'], minLength: 1 }, timeoutMS: { anyOf: [positive, { type: 'null' }] } },
});

function firstError(root: string, errors: Parameters<typeof pickAjvError>[0] | null | undefined): string {
  const error = pickAjvError(errors ?? []);
  return error ? ajvErrorMessage(root, error) : `${root} is invalid`;
}

/** `new URL()` accepts what the pattern let through, and the host is not empty. */
function badUrl(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  try {
    return new URL(url).hostname === '';
  } catch {
    return true;
  }
}

/**
 * Checks the `webhooks` option (CR_INVALID_OPTIONS naming the key) and fills in the defaults.
 *
 * @example
 * const settings = webhookSettings({ endpoints: [{ id: 'site', url: 'https://example.com/hook' }] });
 */
export function webhookSettings(options: WebhooksOptions | undefined): WebhookSettings {
  const o = options ?? {};
  if (!validateOptions(o)) throw new ConfigurationError('CR_INVALID_OPTIONS', firstError('options.webhooks', validateOptions.errors));
  for (const [i, endpoint] of (o.endpoints ?? []).entries()) {
    if (badUrl(endpoint.url)) throw new ConfigurationError('CR_INVALID_OPTIONS', `options.webhooks.endpoints[${i}].url is not a URL: ${endpoint.url}`);
  }
  const ids = (o.endpoints ?? []).map((e) => e.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) throw new ConfigurationError('CR_INVALID_OPTIONS', `options.webhooks.endpoints: the id ${JSON.stringify(twice)} is used twice`);
  return Object.freeze({
    defaultHeaders: Object.freeze({ ...(o.defaultHeaders ?? {}) }),
    timeoutMS: o.timeoutMS ?? 10_000,
    maxAttempts: o.maxAttempts ?? 12,
    backoffMS: o.backoffMS ?? 2000,
    maxBackoffMS: o.maxBackoffMS ?? 3_600_000,
    concurrency: o.concurrency ?? 5,
    leaseMS: o.leaseMS,
    pollMS: o.pollMS ?? 1000,
    history: o.history ?? 1000,
    maxBodyBytes: o.maxBodyBytes ?? 4 * 1024 * 1024,
  });
}

/**
 * Checks a webhook given to the host API (`create`, or `update` with `partial`): a 400 ValidationError naming the key.
 *
 * @example
 * checkDefinition({ id: 'site', url: 'https://example.com/hook' }, false);
 */
export function checkDefinition(input: unknown, partial: boolean): void {
  const validate = partial ? validateChanges : validateDefinition;
  if (!validate(input)) throw new ValidationError(firstError('webhook', validate.errors));
  const url = (input as { url?: unknown }).url;
  if (badUrl(url)) throw new ValidationError(`webhook.url is not a URL: ${String(url)}`);
}
