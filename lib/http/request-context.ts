import type { Request } from 'express';
import type { Ability } from '../auth/types';
import { NO_ABILITY } from '../auth/types';

const ABILITY = Symbol('content-router.ability');

type WithAbility = Request & { [ABILITY]?: Ability };

/** Attaches the caller's ability to the request (done once by the auth middleware). */
export function setAbility(req: Request, ability: Ability): void {
  (req as WithAbility)[ABILITY] = ability;
}

/**
 * The caller's ability. Nothing is allowed when no auth middleware ran: a route mounted without it fails
 * closed (403), never open.
 */
export function getAbility(req: Request): Ability {
  return (req as WithAbility)[ABILITY] ?? NO_ABILITY;
}

/** The caller's ability when authentication has run for this request (it had not when an error came first). */
export function knownAbility(req: Request): Ability | undefined {
  return (req as WithAbility)[ABILITY];
}

/**
 * The raw query string of the request (Express's own `req.query` depends on the host app's parser), read from
 * `req.url` as Express middleware expects: a host middleware in front of the router that rewrites `req.url`
 * (adding a default `populate`, say) is honoured, as Express's own `req.query` would honour it.
 */
export function rawQueryString(req: Request): string {
  const url = req.url;
  const i = url.indexOf('?');
  return i < 0 ? '' : url.slice(i + 1);
}
