import type { IncomingMessage } from 'node:http';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { ConfigurationError } from '../errors';
import { ajvErrorMessage, fieldPath } from '../errors/ajv-message';
import type { UsersOptions } from '../users-permissions/users-options';

/** One API token, as created in Strapi's admin (Settings > API Tokens) or by the host app. */
export interface ApiTokenOption {
  /** Unique; the ability's subject is `api-token:<name>`. */
  name: string;
  /** read-only: every `find`/`findOne`; full-access: everything; custom: exactly `permissions`. */
  type: 'read-only' | 'full-access' | 'custom';
  /** The plain token value. Prefer `hash`: then the value is stored nowhere on the server. */
  accessKey?: string;
  /** `hashAccessKey(accessKey, salt)`: the hex HMAC-SHA512 Strapi stores (needs `salt`). */
  hash?: string;
  /** The actions of a custom token, e.g. `['api::article.article.find', 'plugin::upload.content-api.upload']`. */
  permissions?: string[];
  /** After this instant the token answers 401. `null`/absent: never expires. */
  expiresAt?: string | Date | null;
}

/** What `resolve(req)` answers for a caller the host app recognises (its users, sessions, JWTs). */
export interface ResolvedCaller {
  actions: string[];
  /** Shown as the ability's subject (default `user`). */
  subject?: string;
}

/**
 * The value of `auth.public` that grants the Public role every action (every content type, drafts and the media
 * library included), for local development only: it emits the `CR_AUTH_OPEN` warning at start-up.
 */
export const PUBLIC_ALL = 'all';

/**
 * `options.auth` of `createContentRouter`. Content types are private by default (the spec, section 5): absent or
 * empty, nothing is allowed.
 */
export interface AuthOptions {
  apiTokens?: ApiTokenOption[];
  /** The HMAC key of token hashes (Strapi's `API_TOKEN_SALT`); required when any token is given as `hash`. */
  salt?: string;
  /**
   * The Public role: the actions allowed to requests without a token. `'all'` grants it every action, deletes and
   * uploads included, with a `CR_AUTH_OPEN` warning at start-up: local development only.
   */
  public?: { actions: string[] } | typeof PUBLIC_ALL;
  /**
   * The host app's own authentication, asked when a request carries no API token (or a bearer token that is not
   * an API token, e.g. the app's JWT). Return the caller's actions, or null/undefined for "not recognised".
   */
  resolve?: (req: IncomingMessage) => Promise<ResolvedCaller | null | undefined>;
  /**
   * Who may read drafts (`?status=draft`, and the drafts a draft read populates). `'findDrafts'` (the default):
   * the caller needs `<uid>.findDrafts` (full-access and read-only API tokens have it); `'strapi'`: Strapi 5's
   * rule, anyone who may `find` or `findOne` the type (strapi#25326).
   */
  drafts?: DraftsRule;
  /**
   * Strapi's users-and-permissions plugin: end users register and log in (`/auth/local`), send their JWT as
   * `Authorization: Bearer <jwt>`, and act under their role's grants (docs/users.md). Needs a `jwtSecret`.
   */
  users?: UsersOptions;
}

/** The values of `auth.drafts`: see {@link AuthOptions.drafts}. */
export type DraftsRule = 'findDrafts' | 'strapi';

/** `auth.drafts` when absent: reading drafts takes the `<uid>.findDrafts` grant. */
export const DEFAULT_DRAFTS_RULE: DraftsRule = 'findDrafts';

const ACTION = { type: 'string', pattern: '^[a-z][a-z0-9-]*::[A-Za-z0-9_.-]+\\.[A-Za-z0-9_-]+$' } as const;

const authOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    apiTokens: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'type'],
        properties: {
          name: { type: 'string', minLength: 1 },
          type: { enum: ['read-only', 'full-access', 'custom'] },
          accessKey: { type: 'string', minLength: 1, pattern: '^\\S+$' },
          hash: { type: 'string', pattern: '^[0-9a-fA-F]{128}$' },
          permissions: { type: 'array', items: ACTION },
          expiresAt: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }, { type: 'object' }] },
        },
      },
    },
    salt: { type: 'string', minLength: 1 },
    public: {
      // The object first: ajv's first error is then the object's own (`auth.public.actions[0] must match ...`).
      anyOf: [
        { type: 'object', additionalProperties: false, required: ['actions'], properties: { actions: { type: 'array', items: ACTION } } },
        { const: PUBLIC_ALL },
      ],
    },
    resolve: {},
    drafts: { enum: ['findDrafts', 'strapi'] },
    users: {},
  },
} as const;

const ajv = new Ajv({ allErrors: false, strict: false, verbose: true });
addFormats(ajv, ['date-time']);
const validateShape = ajv.compile(authOptionsSchema);

/** `/apiTokens/0/type` -> `auth.apiTokens[0].type`. */
export function fieldName(pointer: string): string {
  return fieldPath('auth', pointer);
}

/** A CR_INVALID_OPTIONS error naming the offending field. */
export function invalidAuthOption(field: string, message: string): ConfigurationError {
  return new ConfigurationError('CR_INVALID_OPTIONS', `${field} ${message}`);
}

/**
 * Checks the shape of `options.auth` with ajv (unknown keys, types, hash format, dates) and the rules between
 * fields that a JSON schema says badly. Throws a CR_INVALID_OPTIONS `ConfigurationError` naming the field.
 */
export function validateAuthOptions(options: unknown): asserts options is AuthOptions {
  if (!validateShape(options)) {
    const err = validateShape.errors?.[0];
    if (err?.instancePath === '/public' && err.keyword === 'type') throw invalidAuthOption('auth.public', `must be { actions: string[] } or '${PUBLIC_ALL}'`);
    throw new ConfigurationError('CR_INVALID_OPTIONS', err ? ajvErrorMessage('auth', err) : 'auth is invalid');
  }
  const opts = options as AuthOptions;
  if (opts.resolve !== undefined && typeof opts.resolve !== 'function') {
    throw invalidAuthOption('auth.resolve', 'must be a function (req) => Promise<{ actions, subject? } | null>');
  }
  checkTokens(opts);
}

function checkTokens(opts: AuthOptions): void {
  const names = new Set<string>();
  (opts.apiTokens ?? []).forEach((token, i) => {
    const field = `auth.apiTokens[${i}]`;
    if (names.has(token.name)) throw invalidAuthOption(`${field}.name`, `"${token.name}" is used by another token`);
    names.add(token.name);
    if (token.accessKey === undefined && token.hash === undefined) {
      throw invalidAuthOption(field, 'needs an accessKey or a hash');
    }
    if (token.hash !== undefined && opts.salt === undefined) {
      throw invalidAuthOption('auth.salt', `is required when a token is given as a hash (${field}.hash)`);
    }
    if (token.type === 'custom' && token.permissions === undefined) {
      throw invalidAuthOption(`${field}.permissions`, 'is required for a custom token');
    }
    if (token.type !== 'custom' && (token.permissions?.length ?? 0) > 0) {
      throw invalidAuthOption(`${field}.permissions`, `only applies to custom tokens (this one is ${token.type})`);
    }
    checkExpiry(token.expiresAt, `${field}.expiresAt`);
  });
}

function checkExpiry(exp: ApiTokenOption['expiresAt'], field: string): void {
  if (exp === undefined || exp === null) return;
  const valid = (typeof exp === 'string' || exp instanceof Date) && !Number.isNaN(new Date(exp).getTime());
  if (!valid) throw invalidAuthOption(field, 'must be an ISO date-time or a valid Date');
}
