import { randomBytes } from 'node:crypto';
import { ApplicationError } from '../../errors';
import type { AccountsContext } from '../accounts';
import type { ProviderProfile } from './presets';

type Row = Record<string, unknown>;

/** The longest address kept from a provider (RFC 5321's path limit less its brackets). */
const EMAIL_MAX = 254;
/** The longest username kept from a provider (a suffix is added after it when the name is taken). */
const USERNAME_MAX = 60;

/**
 * A username for a new user of a provider: the provider's, or, when another user has it or it is shorter than the
 * user type's 3 characters, the same with `-` and six random hex digits (Strapi stores a second user of the same
 * name; here usernames are unique).
 */
async function freeUsername(ctx: AccountsContext, wanted: string): Promise<string> {
  const base = [...wanted.trim()].slice(0, USERNAME_MAX).join('');
  if (base.length >= 3 && (await ctx.users.count({ username: base })) === 0) return base;
  for (let attempt = 0; attempt < 3; attempt++) {
    const candidate = `${base}-${randomBytes(3).toString('hex')}`;
    if ((await ctx.users.count({ username: candidate })) === 0) return candidate;
  }
  throw new ApplicationError('Username already taken');
}

/**
 * Strapi's `providers.connect` once the profile is read: the user of this provider with this e-mail (lower-cased),
 * or a new one (role: the default role, `confirmed`, no password, `provider` set) when registering is allowed
 * and no user of another provider (a local one included) has the address: `Email is already taken.` (Strapi's
 * `unique_email`, on by default; here addresses are unique). A user found is returned even when blocked: the
 * caller refuses it.
 *
 * @example
 * const user = await connectAccount(ctx, 'github', { username: 'octocat', email: 'octocat@github.com' });
 */
export async function connectAccount(ctx: AccountsContext, provider: string, profile: ProviderProfile): Promise<Row> {
  const email = profile.email?.toLowerCase();
  // RFC 5321 caps an address at 254 characters: a longer one from a provider is no address.
  if (!email || email.length > EMAIL_MAX) throw new ApplicationError('Email was not available.');
  const existing = await ctx.users.rowWhere({ email });
  if (existing?.provider === provider) return existing;
  if (!ctx.options.allowRegister) throw new ApplicationError('Register action is actually not available.');
  if (existing) throw new ApplicationError('Email is already taken.');
  const role = await ctx.roles.byType(ctx.options.defaultRole);
  if (!role) throw new ApplicationError('Impossible to find the default role');
  const username = await freeUsername(ctx, profile.username ?? email.split('@')[0]!);
  try {
    const id = await ctx.users.create({ username, email, provider, role: role.id, confirmed: true });
    return (await ctx.users.rowById(id))!;
  } catch (error) {
    // Two first logins of one user at once: the second meets the first's unique address, and finds its user.
    const winner = await ctx.users.rowWhere({ email, provider });
    if (winner) return winner;
    throw error;
  }
}
