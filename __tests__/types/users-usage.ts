/**
 * Type-level tests of the users-permissions plugin's generated types (generated/users.d.ts), checked by
 * `npm run typecheck` like usage.ts: every `@ts-expect-error` must be an error, the rest must compile.
 * users-types.test.ts runs `usersUsage` against a real router.
 */
import type { ContentRouter } from '../../lib';
import type { Memo, MemoInput, UsersPermissionsRole, UsersPermissionsUser, UsersPermissionsUserInput } from './generated/users';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(): T => true as T;

/** Relations to users through the typed Document Service; returns the owners' usernames and roles it read. */
export async function usersUsage(router: ContentRouter, owner: string): Promise<{ usernames: string[]; roles: (string | null)[] }> {
  const memos = router.documents('api::memo.memo');
  const data: MemoInput = { title: 'Typed', owner, reviewers: { connect: [owner] } };
  await memos.create({ data });
  const found = await memos.findMany({
    filters: { owner: { username: { $notNull: true }, email: { $endsWithi: '@example.com' } } },
    populate: { owner: { fields: ['username', 'bio'], populate: { role: { fields: ['type'] } } }, reviewers: true },
    sort: ['title:asc'],
  });
  assertType<Equal<typeof found, Memo[]>>();
  assertType<Equal<NonNullable<Memo['owner']>, UsersPermissionsUser>>();
  assertType<Equal<NonNullable<UsersPermissionsUser['role']>, UsersPermissionsRole>>();
  const usernames = found.flatMap((m) => (m.owner ? [m.owner.username] : []));
  const roles = found.flatMap((m) => (m.owner?.role ? [m.owner.role.type] : []));
  return { usernames, roles };
}

/** What the types refuse: each is a 400 or an Error at run time. Never called. */
export async function usersMistakes(router: ContentRouter, memo: Memo): Promise<void> {
  // @ts-expect-error: a user's password is never answered
  void memo.owner?.password;
  // @ts-expect-error: nor its reset and confirmation codes
  void memo.owner?.resetPasswordToken;
  // @ts-expect-error: nor filtered on (400 Invalid key owner.password)
  await router.documents('api::memo.memo').findMany({ filters: { owner: { password: { $eq: 'x' } } } });
  // @ts-expect-error: nor selected
  await router.documents('api::memo.memo').findMany({ populate: { owner: { fields: ['confirmationToken'] } } });
  // @ts-expect-error: users have no Document Service here (router.documents throws): the plugin's routes write them, passwords hashed
  void router.documents('plugin::users-permissions.user');
  // @ts-expect-error: a user's answer has no private attribute
  const answered: UsersPermissionsUser = { id: 1, documentId: 'd', username: 'ada', email: 'ada@example.com', provider: 'local', confirmed: true, blocked: false, bio: null, createdAt: '', updatedAt: '', publishedAt: '', password: 'x' };
  void answered;
}

/** The body of POST /users: the password and the private codes are writable there. */
export const newUser: UsersPermissionsUserInput = {
  username: 'grace',
  email: 'grace@example.com',
  password: 'secret-password',
  resetPasswordToken: null,
  confirmationToken: null,
  confirmed: true,
  bio: 'Compilers',
};
