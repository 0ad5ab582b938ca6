import { randomBytes } from 'node:crypto';
import type { CorsOptions } from '../http/cors';
import type { UploadOptions } from '../http/upload-routes';
import type { UsersOptions } from '../users-permissions';
import { isPlainObject, type ProjectNote } from './project-note';
import type { StrapiEnv } from './strapi-env';

/** Where the notes of one config file go. */
export type Note = (what: string, instead: string) => void;

const isPositiveInteger = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

/** `config/api`: the REST page sizes (`rest.defaultLimit`, `rest.maxLimit`) and the prefix the API is mounted at. */
export function apiSettings(api: unknown, note: Note): { rest: { defaultLimit?: number; maxLimit?: number }; prefix: string } {
  const rest = isPlainObject(api) && isPlainObject(api.rest) ? api.rest : {};
  const out: { defaultLimit?: number; maxLimit?: number } = {};
  for (const key of ['defaultLimit', 'maxLimit'] as const) {
    if (rest[key] === undefined) continue;
    if (isPositiveInteger(rest[key])) out[key] = rest[key];
    else note(`rest.${key} ${JSON.stringify(rest[key])} is not a positive whole number`, 'the default is used; give a whole number above 0');
  }
  if (rest.withCount === false) note('rest.withCount false', 'lists always count their total (meta.pagination.total); ask pagination[withCount]=false per request');
  const prefix = typeof rest.prefix === 'string' && rest.prefix.startsWith('/') ? rest.prefix.replace(/\/+$/, '') || '/' : '/api';
  return { rest: out, prefix };
}

/** koa2-ratelimit's `interval`: milliseconds, or `{ ms, sec, min, hour, day, week, month, year }` added up. */
const TIME_UNITS: Readonly<Record<string, number>> = { ms: 1, sec: 1000, min: 60000, hour: 3600000, day: 86400000, week: 604800000, month: 2628000000, year: 31536000000 };

function intervalMS(interval: unknown): number | undefined {
  if (typeof interval === 'number') return interval;
  if (!isPlainObject(interval) || !Object.keys(interval).every((k) => k in TIME_UNITS)) return undefined;
  return Object.entries(interval).reduce((ms, [unit, n]) => ms + (typeof n === 'number' && n > 0 ? n * TIME_UNITS[unit]! : 0), 0);
}

/** The users-permissions plugin's `ratelimit` (koa2-ratelimit's options): `enabled: false` turns it off. */
function rateLimit(given: unknown, note: Note): UsersOptions['ratelimit'] {
  if (!isPlainObject(given)) return undefined;
  if (given.enabled === false) return false;
  const out: { interval?: number; max?: number } = {};
  const interval = given.interval === undefined ? undefined : intervalMS(given.interval);
  if (interval !== undefined && isPositiveInteger(Math.round(interval))) out.interval = Math.round(interval);
  else if (given.interval !== undefined) note(`ratelimit.interval ${JSON.stringify(given.interval)}`, 'give milliseconds or { min: n } (koa2-ratelimit units); the default (60000) is used');
  if (isPositiveInteger(given.max)) out.max = given.max;
  else if (given.max !== undefined) note(`ratelimit.max ${JSON.stringify(given.max)}`, 'give a whole number above 0; the default (10) is used');
  const other = Object.keys(given).filter((k) => !['enabled', 'interval', 'max'].includes(k));
  if (other.length) note(`ratelimit.${other.join(', ratelimit.')}`, 'only interval, max and enabled are taken: the window is counted per route, e-mail and IP as Strapi does');
  return out;
}

/** The keys of the users-permissions plugin's config taken, or Strapi's defaults that need nothing here. */
const USERS_DEFAULT_KEYS = ['jwtSecret', 'jwt', 'ratelimit', 'register', 'jwtManagement', 'sessions', 'layout', 'callback'];
const SESSION_KEYS = ['accessTokenLifespan', 'maxRefreshTokenLifespan', 'idleRefreshTokenLifespan', 'maxSessionLifespan', 'idleSessionLifespan', 'httpOnly', 'cookie'];

/** `jwtManagement` and `sessions` (Strapi 5's session mode: `'refresh'`), their keys as the plugin reads them. */
function sessionMode(given: Record<string, unknown>, note: Note): Pick<UsersOptions, 'jwtManagement' | 'sessions'> {
  const out: Pick<UsersOptions, 'jwtManagement' | 'sessions'> = {};
  if (given.jwtManagement === 'refresh' || given.jwtManagement === 'legacy-support') out.jwtManagement = given.jwtManagement;
  else if (given.jwtManagement !== undefined) note(`jwtManagement ${JSON.stringify(given.jwtManagement)}`, "give 'legacy-support' (the default) or 'refresh'");
  if (isPlainObject(given.sessions)) {
    const sessions = given.sessions;
    out.sessions = Object.fromEntries(Object.entries(sessions).filter(([k]) => SESSION_KEYS.includes(k)));
    const other = Object.keys(sessions).filter((k) => !SESSION_KEYS.includes(k));
    if (other.length) note(`sessions.${other.join(', sessions.')}`, `not taken; the session keys taken: ${SESSION_KEYS.join(', ')} (docs/users.md)`);
  }
  return out;
}

/**
 * `config/plugins` `users-permissions.config`: the JWT secret (the plugin's default `env('JWT_SECRET')`), `jwt.expiresIn`,
 * the rate limit, `register.allowedFields`, `jwtManagement` and `sessions`. Without a secret Strapi makes one in development (and writes it to
 * `.env`) and refuses to start in production: here too, except that nothing is written (a note says so).
 */
export function usersSettings(config: unknown, env: StrapiEnv, nodeEnv: string, note: Note): UsersOptions {
  const given = isPlainObject(config) ? config : {};
  let jwtSecret = typeof given.jwtSecret === 'string' && given.jwtSecret !== '' ? given.jwtSecret : env('JWT_SECRET', '');
  if (jwtSecret === '') {
    const made = randomBytes(32).toString('base64'); // 32 bytes: shorter is refused in production (CR_SHORT_JWT_SECRET)
    if (nodeEnv === 'production') {
      throw new Error(`Missing jwtSecret. Please, in config/plugins, set config.jwtSecret for the users-permissions plugin or set the environment variable JWT_SECRET (ex: ${made}).`);
    }
    note('no JWT secret (config.jwtSecret, or JWT_SECRET in .env)', 'set JWT_SECRET in .env: a secret made for this run signs the users\' JWTs, which a restart invalidates');
    jwtSecret = made;
  }
  const users: UsersOptions = { jwtSecret };
  const jwt = isPlainObject(given.jwt) ? given.jwt : {};
  if (typeof jwt.expiresIn === 'string' || typeof jwt.expiresIn === 'number') users.jwt = { expiresIn: jwt.expiresIn };
  const otherJwt = Object.keys(jwt).filter((k) => k !== 'expiresIn');
  if (otherJwt.length) note(`jwt.${otherJwt.join(', jwt.')}`, 'JWTs are signed HS256 with jwtSecret and expire after jwt.expiresIn; other jsonwebtoken options are not taken');
  const ratelimit = rateLimit(given.ratelimit, note);
  if (ratelimit !== undefined) users.ratelimit = ratelimit;
  const allowed = isPlainObject(given.register) ? given.register.allowedFields : undefined;
  if (Array.isArray(allowed) && allowed.every((f) => typeof f === 'string')) users.register = { allowedFields: allowed as string[] };
  Object.assign(users, sessionMode(given, note));
  const other = Object.keys(given).filter((k) => !USERS_DEFAULT_KEYS.includes(k));
  if (other.length) note(`users-permissions ${other.join(', ')}`, 'not taken: the users-permissions routes answer with Strapi\'s defaults for these (docs/users.md)');
  return users;
}

/** `config/plugins` `upload.config`: the size limit and the breakpoints; a provider other than `local` is not run. */
export function uploadSettings(config: unknown, note: Note): Pick<UploadOptions, 'sizeLimit' | 'breakpoints'> {
  const given = isPlainObject(config) ? config : {};
  const out: Pick<UploadOptions, 'sizeLimit' | 'breakpoints'> = {};
  if (typeof given.sizeLimit === 'number' && given.sizeLimit > 0) out.sizeLimit = given.sizeLimit;
  if (isPlainObject(given.breakpoints) && Object.values(given.breakpoints).every((n) => typeof n === 'number' && n > 0)) {
    out.breakpoints = given.breakpoints as Record<string, number>;
  }
  if (given.provider !== undefined && given.provider !== 'local') {
    note(`upload provider ${JSON.stringify(given.provider)}`, 'files go to public/uploads; for another storage give upload.provider (a StorageProvider) in code (docs/media.md)');
  }
  return out;
}

const CORS_KEYS = ['origin', 'methods', 'headers', 'expose', 'maxAge', 'credentials', 'keepHeadersOnError'];

/**
 * The `strapi::cors` entry of `config/middlewares`: `true` for the plain `'strapi::cors'` (Strapi's defaults), its
 * `config` otherwise, `false` when the list has no such entry (Strapi then sends no CORS headers). Keys Strapi
 * ignores too (`enabled`, the misspelled `keepHeaderOnError`) are noted, not refused.
 */
export function corsSettings(entry: unknown, note: Note): boolean | CorsOptions {
  if (entry === undefined) return false;
  const config = isPlainObject(entry) && isPlainObject(entry.config) ? entry.config : {};
  const ignored = Object.keys(config).filter((k) => !CORS_KEYS.includes(k));
  if (ignored.length) note(`strapi::cors ${ignored.join(', ')}`, 'ignored, as Strapi ignores them: remove the entry to turn CORS off; keys taken: ' + CORS_KEYS.join(', '));
  const picked = Object.fromEntries(Object.entries(config).filter(([k]) => CORS_KEYS.includes(k)));
  return Object.keys(picked).length ? (picked as CorsOptions) : true;
}
