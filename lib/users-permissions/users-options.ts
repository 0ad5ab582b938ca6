import Ajv from 'ajv';
import { ConfigurationError } from '../errors';
import { ajvErrorMessage, pickAjvError } from '../errors/ajv-message';
import { checkJwtSecret } from './jwt-secret-strength';
import { PROVIDERS_SCHEMA, resolveProviders, type ResolvedProvider, type UsersProviderOption } from './connect/providers-options';

/** One e-mail as the users-permissions plugin sends it (reset password, e-mail confirmation). */
export interface UsersEmail {
  to: string;
  from?: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
}

/** What sends e-mails: a function, or a nodemailer-style transport (`{ sendMail(message) }`). */
export type UsersEmailSender = ((email: UsersEmail) => Promise<unknown>) | { sendMail(email: UsersEmail): Promise<unknown> };

/** A role of the options: seeded into storage at start-up when no role of its `type` is stored yet. */
export interface UsersRoleOption {
  /** Display name; default: the type with a capital (`Authenticated`). */
  name?: string;
  description?: string;
  /** The actions granted, added to Strapi's defaults for `authenticated` and `public`. */
  actions?: string[];
}

/**
 * `auth.users`: Strapi's users-and-permissions plugin (register, log in with a JWT, roles). See docs/users.md.
 *
 * @example
 * auth: {
 *   public: { actions: ['api::article.article.find'] },
 *   users: { jwtSecret: process.env.JWT_SECRET!, roles: { authenticated: { actions: ['api::article.article.create'] } } },
 * }
 */
export interface UsersOptions {
  /** The HS256 secret of the JWTs (Strapi's `JWT_SECRET`): `openssl rand -base64 32`. Required. */
  jwtSecret: string;
  /** JWT options: `expiresIn` (default `'30d'`, as Strapi: a number of seconds or a `ms` string). */
  jwt?: { expiresIn?: string | number };
  /** Roles by type. `authenticated` and `public` always exist; the Public role's grants also come from `auth.public`. */
  roles?: Record<string, UsersRoleOption>;
  /** Strapi's advanced settings. */
  advanced?: {
    /** Default true. */
    allowRegister?: boolean;
    /** Default false: new users are confirmed at once. */
    emailConfirmation?: boolean;
    /** The role type given to new users; default `authenticated`. */
    defaultRole?: string;
    /** Where `GET /auth/email-confirmation` redirects; default `/`. */
    emailConfirmationRedirection?: string;
    /** The URL of the reset-password page, given the `code` (`<URL>?code=<token>`). */
    emailResetPassword?: string;
  };
  /** Extra body keys `POST /auth/local/register` accepts (Strapi's `register.allowedFields`). */
  register?: { allowedFields?: string[] };
  /**
   * Strapi's rate limit of the auth routes: `{ interval: 60000, max: 10 }` by default; `false` turns it off.
   * `maxPerIp` (default `5 * max`) also bounds the requests of one IP to register, forgot-password and
   * send-email-confirmation whatever the address (their `max` counts per address and IP).
   */
  ratelimit?: { interval?: number; max?: number; maxPerIp?: number } | false;
  /**
   * The public URL where the router is mounted (Strapi's `server.url` plus the API prefix), e.g.
   * `https://api.example.com/api`: the confirmation e-mail's link is `<url>/auth/email-confirmation`. Never taken
   * from the request (its `Host` header is the caller's). Required with `advanced.emailConfirmation`.
   */
  url?: string;
  /** Sends the reset and confirmation e-mails. Without it they are not sent (see docs/users.md). */
  email?: { send?: UsersEmailSender; from?: string; replyTo?: string };
  /**
   * Extra attributes of the user type, as a Strapi project's
   * `src/extensions/users-permissions/content-types/user/schema.json` (`{ attributes: {...} }`).
   */
  userSchema?: { attributes?: Record<string, unknown> };
  /**
   * Strapi's `jwtManagement`: `'legacy-support'` (default: one long JWT, `jwt.expiresIn`) or `'refresh'` (session
   * mode: short access tokens, refresh tokens of stored sessions, `/auth/refresh`, `/auth/logout`, `/auth/sessions`).
   */
  jwtManagement?: 'legacy-support' | 'refresh';
  /** Session mode's lifespans (seconds) and refresh cookie, as Strapi's `sessions` config. See docs/users.md. */
  sessions?: UsersSessionsOption;
  /** Social login (Strapi's Providers settings): `GET /connect/<name>` and `/auth/<name>/callback`. See docs/users.md. */
  providers?: Record<string, UsersProviderOption>;
}

/** `auth.users.sessions` (Strapi's `plugin::users-permissions.sessions`). */
export interface UsersSessionsOption {
  /** Access tokens' lifespan; default 600 (10 minutes). */
  accessTokenLifespan?: number;
  /** A login's longest life, however often it is refreshed; default 2592000 (30 days). */
  maxRefreshTokenLifespan?: number;
  /** How long a refresh token may wait before it is spent; default 1209600 (14 days). */
  idleRefreshTokenLifespan?: number;
  /** Accepted for Strapi configurations; the plugin opens refresh sessions only, which do not read them. */
  maxSessionLifespan?: number;
  /** Accepted for Strapi configurations (see `maxSessionLifespan`). */
  idleSessionLifespan?: number;
  /** Refresh tokens in an httpOnly cookie instead of the body (default false; per request: `x-strapi-refresh-cookie: httpOnly`). */
  httpOnly?: boolean;
  /** The cookie: name `strapi_up_refresh`, `sameSite` `lax`, `path` `/`, `secure` in production, by default. */
  cookie?: { name?: string; secure?: boolean; sameSite?: 'lax' | 'strict' | 'none'; path?: string; domain?: string; maxAge?: number };
}

/** Session mode's settings with their defaults (Strapi's `services/constants`). */
export interface ResolvedSessionsOptions {
  readonly accessTokenLifespan: number;
  readonly maxRefreshTokenLifespan: number;
  readonly idleRefreshTokenLifespan: number;
  readonly httpOnly: boolean;
  readonly cookie: Readonly<NonNullable<UsersSessionsOption['cookie']>> & { readonly name: string };
}

/** The options with their defaults applied. */
export interface ResolvedUsersOptions {
  readonly jwtSecret: string;
  readonly expiresIn: string | number;
  readonly roles: Readonly<Record<string, UsersRoleOption>>;
  readonly allowRegister: boolean;
  readonly emailConfirmation: boolean;
  readonly defaultRole: string;
  readonly emailConfirmationRedirection: string;
  readonly emailResetPassword: string | null;
  readonly allowedFields: readonly string[];
  readonly ratelimit: { readonly interval: number; readonly max: number; readonly maxPerIp: number } | false;
  /** `url` without a trailing slash, or null. */
  readonly url: string | null;
  readonly email: UsersOptions['email'];
  readonly userAttributes: Readonly<Record<string, unknown>>;
  readonly jwtManagement: 'legacy-support' | 'refresh';
  readonly sessions: ResolvedSessionsOptions;
  readonly providers: ReadonlyMap<string, ResolvedProvider>;
}

const SECONDS = { type: 'integer', minimum: 1, maximum: 315_360_000 } as const;
const SESSIONS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    accessTokenLifespan: SECONDS,
    maxRefreshTokenLifespan: SECONDS,
    idleRefreshTokenLifespan: SECONDS,
    maxSessionLifespan: SECONDS,
    idleSessionLifespan: SECONDS,
    httpOnly: { type: 'boolean' },
    cookie: {
      type: 'object',
      additionalProperties: false,
      properties: {
        name: { type: 'string', pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$" },
        secure: { type: 'boolean' },
        sameSite: { enum: ['lax', 'strict', 'none'] },
        path: { type: 'string', pattern: '^/[^;\\s]*$' },
        domain: { type: 'string', pattern: '^[A-Za-z0-9.-]{1,253}$' },
        maxAge: { type: 'integer', minimum: 0 },
      },
    },
  },
} as const;

const ACTION = { type: 'string', pattern: '^[a-z][a-z0-9-]*::[A-Za-z0-9_.-]+\\.[A-Za-z0-9_-]+$' } as const;
const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['jwtSecret'],
  properties: {
    jwtSecret: { type: 'string', minLength: 1 },
    jwt: { type: 'object', additionalProperties: false, properties: { expiresIn: { type: ['string', 'number'] } } },
    roles: {
      type: 'object',
      propertyNames: { pattern: '^[a-z0-9_-]+$' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 3 }, description: { type: 'string' }, actions: { type: 'array', items: ACTION } },
      },
    },
    advanced: {
      type: 'object',
      additionalProperties: false,
      properties: {
        allowRegister: { type: 'boolean' },
        emailConfirmation: { type: 'boolean' },
        defaultRole: { type: 'string', minLength: 1 },
        emailConfirmationRedirection: { type: 'string' },
        emailResetPassword: { type: 'string' },
      },
    },
    register: { type: 'object', additionalProperties: false, properties: { allowedFields: { type: 'array', items: { type: 'string' } } } },
    ratelimit: {
      anyOf: [
        {
          type: 'object',
          additionalProperties: false,
          properties: { interval: { type: 'integer', minimum: 1 }, max: { type: 'integer', minimum: 1 }, maxPerIp: { type: 'integer', minimum: 1 } },
        },
        { const: false },
      ],
    },
    email: { type: 'object', additionalProperties: false, properties: { send: {}, from: { type: 'string' }, replyTo: { type: 'string' } } },
    userSchema: { type: 'object', properties: { attributes: { type: 'object' } } },
    url: { type: 'string', pattern: '^https?://[^\\s<>"\'`]+$' },
    jwtManagement: { enum: ['legacy-support', 'refresh'] },
    sessions: SESSIONS_SCHEMA,
    providers: PROVIDERS_SCHEMA,
  },
} as const;

const validate = new Ajv({ allErrors: true, strict: false, verbose: true }).compile(schema);

const invalid = (message: string): ConfigurationError => new ConfigurationError('CR_INVALID_OPTIONS', message);

/**
 * Checks `auth.users` once at start-up and applies Strapi's defaults. A missing or empty `jwtSecret` is refused
 * with how to make one (`CR_INVALID_OPTIONS`).
 */
export function resolveUsersOptions(given: unknown): ResolvedUsersOptions {
  if (given === null || typeof given !== 'object' || typeof (given as { jwtSecret?: unknown }).jwtSecret !== 'string' || (given as { jwtSecret: string }).jwtSecret === '') {
    throw invalid(
      'auth.users.jwtSecret is required: the secret that signs the users\' JWTs (Strapi\'s JWT_SECRET). Make one with ' +
        '`openssl rand -base64 32` (or `node -e "console.log(require(\'crypto\').randomBytes(32).toString(\'base64\'))"`) and pass it from the environment.',
    );
  }
  if (!validate(given)) {
    const error = pickAjvError(validate.errors ?? []);
    throw invalid(error ? ajvErrorMessage('auth.users', error) : 'auth.users is invalid');
  }
  const o = given as UsersOptions;
  const send = o.email?.send;
  if (send !== undefined && typeof send !== 'function' && typeof (send as { sendMail?: unknown }).sendMail !== 'function') {
    throw invalid('auth.users.email.send must be a function (email) => Promise, or a transport with sendMail(email)');
  }
  if (o.advanced?.emailConfirmation === true && send === undefined) {
    throw invalid('auth.users.advanced.emailConfirmation needs auth.users.email.send: new users could never receive their confirmation code');
  }
  if (o.advanced?.emailConfirmation === true && o.url === undefined) {
    throw invalid('auth.users.advanced.emailConfirmation needs auth.users.url (e.g. "https://api.example.com/api"): the link of the confirmation e-mail is made from it, never from the request');
  }
  checkJwtSecret(o.jwtSecret);
  const defaultRole = o.advanced?.defaultRole ?? 'authenticated';
  const url = o.url === undefined ? null : o.url.replace(/\/+$/, '');
  if (defaultRole === 'public') throw invalid('auth.users.advanced.defaultRole cannot be "public"');
  return Object.freeze({
    jwtSecret: o.jwtSecret,
    expiresIn: o.jwt?.expiresIn ?? '30d',
    roles: o.roles ?? {},
    allowRegister: o.advanced?.allowRegister ?? true,
    emailConfirmation: o.advanced?.emailConfirmation ?? false,
    defaultRole,
    emailConfirmationRedirection: o.advanced?.emailConfirmationRedirection ?? '/',
    emailResetPassword: o.advanced?.emailResetPassword ?? null,
    allowedFields: o.register?.allowedFields ?? [],
    ratelimit: o.ratelimit === false ? false : rateLimitOptions(o.ratelimit),
    url,
    email: o.email,
    userAttributes: o.userSchema?.attributes ?? {},
    providers: resolveProviders(o.providers, url),
    jwtManagement: o.jwtManagement ?? 'legacy-support',
    sessions: resolveSessions(o.sessions ?? {}),
  });
}

/** Strapi's defaults (services/constants.ts): access tokens 10 minutes, refresh tokens idle 14 days, a login 30 days at most. */
function resolveSessions(s: UsersSessionsOption): ResolvedSessionsOptions {
  // An idle window longer than the longest life is cut at the end of the login (sessions.ts).
  return Object.freeze({
    accessTokenLifespan: s.accessTokenLifespan ?? 600,
    maxRefreshTokenLifespan: s.maxRefreshTokenLifespan ?? 30 * 24 * 3600,
    idleRefreshTokenLifespan: s.idleRefreshTokenLifespan ?? 14 * 24 * 3600,
    httpOnly: s.httpOnly ?? false,
    cookie: Object.freeze({ ...s.cookie, name: s.cookie?.name ?? 'strapi_up_refresh' }),
  });
}

/** Strapi's defaults of the rate limit, and the per-IP window of the e-mail routes (`5 * max`). */
function rateLimitOptions(given: { interval?: number; max?: number; maxPerIp?: number } | undefined): { interval: number; max: number; maxPerIp: number } {
  const max = given?.max ?? 10;
  return { interval: given?.interval ?? 60_000, max, maxPerIp: given?.maxPerIp ?? 5 * max };
}
