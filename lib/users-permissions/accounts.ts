import { randomBytes } from 'node:crypto';
import type { Ability } from '../auth/types';
import { ApplicationError, ValidationError } from '../errors';
import type { Logger } from '../errors/logger';
import type { JwtService } from './jwt';
import type { Mailer } from './email';
import { hashPassword, spendPasswordCheck, verifyPassword } from './passwords';
import type { PluginDocuments } from './plugin-store';
import type { RolesService } from './roles';
import type { SessionManager } from './sessions';
import type { ResolvedUsersOptions } from './users-options';
import { AUTH_LIMITS, EMAIL_RULE, NEW_PASSWORD_RULE, tooLong, USERNAME_RULE } from './auth-limits';
import { assertNoUnknownKeys, bodyObject, passwordsDoNotMatch, validateStrings } from './validate-body';

type Row = Record<string, unknown>;

/** What the account flows share. */
export interface AccountsContext {
  readonly options: ResolvedUsersOptions;
  readonly users: PluginDocuments;
  readonly roles: RolesService;
  readonly jwt: JwtService;
  readonly mailer: Mailer;
  readonly logger: Logger;
  /** Session mode's sessions (ended with their user); undefined in legacy mode. */
  readonly sessions?: SessionManager;
}

/** Where the links of the e-mails point, from the options (`auth.users.url`), never from the request. */
export interface RequestUrls {
  /** `<url>/auth/email-confirmation`, or undefined when `auth.users.url` is not set (no link can be made). */
  readonly emailConfirmation: string | undefined;
}

const PASSWORD = NEW_PASSWORD_RULE;

/** A user as the plugin answers it to `ability` (private attributes never; `role` when it may find roles). */
async function sanitizedUser(ctx: AccountsContext, id: number, ability: Ability, populateRole = false): Promise<Row> {
  return (await ctx.users.findById(id, ctx.users.query(populateRole ? 'populate=role' : '', ability, 'findOne'))) ?? {};
}

/** `POST /auth/local`: e-mail (any case) or username, and password. Every failure reads the same. */
export async function login(ctx: AccountsContext, body: unknown, ability: Ability): Promise<Row> {
  const { identifier, password } = validateStrings(body, { identifier: { required: true }, password: { required: true } });
  // Too long to match any stored user or password: Strapi's answer for an unknown user, after the same bcrypt work.
  if (tooLong(identifier, AUTH_LIMITS.name) || tooLong(password, AUTH_LIMITS.givenPassword)) {
    await spendPasswordCheck(password!.slice(0, AUTH_LIMITS.givenPassword));
    throw new ValidationError('Invalid identifier or password');
  }
  // Plain strings only (validated above): an operator object can never reach the filter.
  const user = await ctx.users.rowWhere({ provider: 'local', $or: [{ email: identifier!.toLowerCase() }, { username: identifier! }] });
  const valid = user ? await verifyPassword(password!, user.password) : (await spendPasswordCheck(password!), false);
  if (!user || !valid) throw new ValidationError('Invalid identifier or password');
  if (ctx.options.emailConfirmation && user.confirmed !== true) throw new ApplicationError('Your account email is not confirmed');
  if (user.blocked === true) throw new ApplicationError('Your account has been blocked by an administrator');
  return { jwt: ctx.jwt.issue({ id: user.id as number }), user: await sanitizedUser(ctx, user.id as number, ability) };
}

/** `POST /auth/local/register`. `role`, `confirmed`, `blocked`, `provider`... are refused unless allowed. */
export async function register(ctx: AccountsContext, body: unknown, ability: Ability, urls: RequestUrls): Promise<Row> {
  const { options } = ctx;
  if (!options.allowRegister) throw new ApplicationError('Register action is currently disabled');
  const data = bodyObject(body);
  const allowed = ['username', 'password', 'email', ...options.allowedFields];
  const invalid = Object.keys(data).filter((k) => !allowed.includes(k));
  if (invalid.length > 0) throw new ValidationError(`Invalid parameters: ${invalid.join(', ')}`);
  const { email, username, password } = validateStrings(data, { email: EMAIL_RULE, username: USERNAME_RULE, password: PASSWORD });
  const role = await ctx.roles.byType(options.defaultRole);
  if (!role) throw new ApplicationError('Impossible to find the default role');
  const lower = email!.toLowerCase();
  const taken = await ctx.users.count({ $or: [{ email: lower }, { username: lower }, { username }, { email: username }] });
  if (taken > 0) throw new ApplicationError('Email or Username are already taken');
  const extra = Object.fromEntries(Object.entries(data).filter(([k]) => options.allowedFields.includes(k)));
  const user: Row = { ...extra, username, email: lower, provider: 'local', role: role.id, confirmed: !options.emailConfirmation, password };
  ctx.users.check(user, 'create');
  const id = await ctx.users.create({ ...user, password: await hashPassword(password!) });
  const sanitized = await sanitizedUser(ctx, id, ability, true);
  if (options.emailConfirmation) {
    try {
      await sendConfirmation(ctx, id, urls);
    } catch (error) {
      ctx.logger.error(`users-permissions: the confirmation e-mail could not be sent: ${String(error)}`);
      throw new ApplicationError(error instanceof Error ? error.message : 'The confirmation e-mail could not be sent');
    }
    return { user: sanitized };
  }
  return { jwt: ctx.jwt.issue({ id }), user: sanitized };
}

/** Stores a new confirmation token of the user and sends it (Strapi's `sendConfirmationEmail`). */
async function sendConfirmation(ctx: AccountsContext, id: number, urls: RequestUrls): Promise<void> {
  if (urls.emailConfirmation === undefined) throw new Error('auth.users.url is not set: the confirmation link cannot be made (docs/users.md)');
  const row = await ctx.users.rowById(id);
  if (!row) return;
  const token = randomBytes(20).toString('hex');
  await ctx.users.update(row.documentId as string, { confirmationToken: token });
  await ctx.mailer.sendConfirmation(row.email as string, urls.emailConfirmation, token);
}

/** `POST /auth/change-password` for the authenticated `user`. */
export async function changePassword(ctx: AccountsContext, user: Row, body: unknown, ability: Ability): Promise<Row> {
  const fields = { password: PASSWORD, passwordConfirmation: { required: true }, currentPassword: { required: true } };
  const { password, passwordConfirmation, currentPassword } = validateStrings(body, fields);
  if (password !== passwordConfirmation) throw passwordsDoNotMatch(passwordConfirmation!);
  assertNoUnknownKeys(body, Object.keys(fields));
  const current = await ctx.users.rowById(user.id as number);
  if (!current || tooLong(currentPassword, AUTH_LIMITS.givenPassword) || !(await verifyPassword(currentPassword!, current.password))) {
    throw new ValidationError('The provided current password is invalid');
  }
  if (currentPassword === password) throw new ValidationError('Your new password must be different than your current password');
  const sanitized = await sanitizedUser(ctx, current.id as number, ability);
  ctx.users.check({ password }, 'update');
  await ctx.users.update(current.documentId as string, { password: await hashPassword(password!) });
  return { jwt: ctx.jwt.issue({ id: current.id as number }), user: sanitized };
}

/**
 * `POST /auth/forgot-password`: `{ ok: true }` whether the address exists or not, after the same work on both
 * paths, so that neither the answer nor its time tells: one lookup and a new token, answered at once; then, after
 * the answer, the token is stored (on the user's row, or on a filter that matches no row for an unknown address)
 * and the e-mail sent. The token is stored before the e-mail is sent, as Strapi does: an administrator can still
 * make the link when the e-mail fails.
 */
export async function forgotPassword(ctx: AccountsContext, body: unknown): Promise<Row> {
  const { email } = validateStrings(body, { email: EMAIL_RULE });
  assertNoUnknownKeys(body, ['email']);
  const found = await ctx.users.rowWhere({ email: email!.toLowerCase() });
  const user = found && found.blocked !== true ? found : undefined;
  const token = randomBytes(64).toString('hex');
  const store = async (): Promise<void> => {
    await ctx.users.setWhere({ id: user ? (user.id as number) : -1 }, { resetPasswordToken: token });
    if (user && ctx.mailer.configured) await ctx.mailer.sendResetPassword(user.email as string, ctx.options.emailResetPassword ?? '', token);
  };
  store().catch((error: unknown) => ctx.logger.error(`users-permissions: the reset-password token could not be stored or e-mailed: ${String(error)}`));
  return { ok: true };
}

/** `POST /auth/reset-password`: the code of the e-mail and a new password. */
export async function resetPassword(ctx: AccountsContext, body: unknown, ability: Ability): Promise<Row> {
  const fields = { password: PASSWORD, passwordConfirmation: { required: true }, code: { required: true } };
  const { password, passwordConfirmation, code } = validateStrings(body, fields);
  if (password !== passwordConfirmation) throw passwordsDoNotMatch(passwordConfirmation!);
  assertNoUnknownKeys(body, Object.keys(fields));
  const user = tooLong(code, AUTH_LIMITS.code) ? undefined : await ctx.users.rowWhere({ resetPasswordToken: code! });
  if (!user) throw new ValidationError('Incorrect code provided');
  ctx.users.check({ password }, 'update');
  await ctx.users.update(user.documentId as string, { resetPasswordToken: null, password: await hashPassword(password!) });
  return { jwt: ctx.jwt.issue({ id: user.id as number }), user: await sanitizedUser(ctx, user.id as number, ability) };
}

/** `GET /auth/email-confirmation?confirmation=<code>`: confirms and answers where to redirect. */
export async function confirmEmail(ctx: AccountsContext, query: Record<string, unknown>): Promise<string> {
  const { confirmation } = validateStrings(query, { confirmation: { required: true } });
  const user = tooLong(confirmation, AUTH_LIMITS.code) ? undefined : await ctx.users.rowWhere({ confirmationToken: confirmation! });
  if (!user) throw new ValidationError('Invalid token');
  await ctx.users.update(user.documentId as string, { confirmed: true, confirmationToken: null });
  return ctx.options.emailConfirmationRedirection;
}

/** `POST /auth/send-email-confirmation`. */
export async function sendEmailConfirmation(ctx: AccountsContext, body: unknown, urls: RequestUrls): Promise<Row> {
  const { email } = validateStrings(body, { email: EMAIL_RULE });
  const user = await ctx.users.rowWhere({ email: email!.toLowerCase() });
  if (!user) return { email, sent: true };
  if (user.confirmed === true) throw new ApplicationError('Already confirmed');
  if (user.blocked === true) throw new ApplicationError('User blocked');
  try {
    await sendConfirmation(ctx, user.id as number, urls);
  } catch (error) {
    throw new ApplicationError(error instanceof Error ? error.message : 'The confirmation e-mail could not be sent');
  }
  return { email: user.email, sent: true };
}
