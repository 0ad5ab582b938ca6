import express from 'express';
import request from 'supertest';
import { createContentRouter, memoryEngine, type ContentRouter } from '../../lib';
import { typeErrors } from './type-check';
import type { UsersPermissionsUserInput } from './generated/users';
import { memoType, userExtension } from './users-model';
import { newUser, usersUsage } from './users-usage';

/**
 * The users-permissions plugin's generated types (generated/users.d.ts, compared with a fresh generation by
 * generated-types.test.ts) are true: real answers of a router with `auth.users` and the same user extension (the
 * auth routes, /users, /users/me, relations to users populated by REST and the Document Service), written as
 * literals of the generated types, compile; a private attribute in an answer does not.
 */
const FULL = 'users-types-full-access-token';

/** Type errors of `export const value<i>: <type> = <json>;` for each answer. */
function literalErrors(answers: readonly (readonly [type: string, value: unknown])[]): string[] {
  const types = [...new Set(answers.map(([t]) => t.replace(/\[\]$/, '')))];
  const lines = [`import type { ${types.join(', ')} } from './generated/users';`];
  answers.forEach(([type, value], i) => lines.push(`export const value${i}: ${type} = ${JSON.stringify(value, null, 2)};`));
  return typeErrors({ 'users-answers.ts': lines.join('\n') });
}

let router: ContentRouter;
let app: express.Express;
const full = { authorization: `Bearer ${FULL}` };
let ada: { jwt: string; user: { id: number; documentId: string } };

beforeAll(async () => {
  router = createContentRouter({
    contentTypes: [memoType],
    engine: memoryEngine({ ephemeral: true }),
    logger: false,
    upload: false,
    auth: {
      apiTokens: [{ name: 'full', type: 'full-access', accessKey: FULL }],
      users: { jwtSecret: 'users-types-secret', register: { allowedFields: ['bio'] }, ratelimit: false, userSchema: userExtension },
    },
  });
  await router.ready;
  app = express().use('/api', router);
  const res = await request(app).post('/api/auth/local/register').send({ username: 'ada', email: 'ada@example.com', password: 'ada-Pass-1', bio: 'Engines' });
  expect(res.status).toBe(200);
  ada = res.body;
  const memo = await request(app).post('/api/memos').set(full).send({ data: { title: 'Notes', owner: ada.user.documentId, reviewers: [ada.user.documentId] } });
  expect(memo.status).toBe(201);
});

it('the auth routes\', /users\' and populated relations\' users are values of the generated types', async () => {
  const me = await request(app).get('/api/users/me').set({ authorization: `Bearer ${ada.jwt}` });
  const users = await request(app).get('/api/users').query({ populate: { role: true, memos: true } }).set(full);
  const memos = await request(app).get('/api/memos').query({ populate: { owner: { populate: ['role', 'memos'] }, reviewers: true } }).set(full);
  const docs = await router.documents('api::memo.memo').findMany({ populate: { owner: { populate: { role: true } }, reviewers: true } });
  expect([me.status, users.status, memos.status]).toEqual([200, 200, 200]);
  // Not vacuous: the extension's attribute, the role and both relations are in the answers.
  expect(users.body[0]).toEqual(expect.objectContaining({ username: 'ada', bio: 'Engines', role: expect.objectContaining({ type: 'authenticated' }), memos: [expect.objectContaining({ title: 'Notes' })] }));
  expect(memos.body.data[0].owner).toEqual(expect.objectContaining({ username: 'ada', role: expect.any(Object) }));
  expect(docs[0]!.reviewers).toEqual([expect.objectContaining({ username: 'ada' })]);
  const answers: [string, unknown][] = [
    ['UsersPermissionsUser', ada.user],
    ['UsersPermissionsUser', me.body],
    ['UsersPermissionsUser[]', users.body],
    ['Memo[]', memos.body.data],
    ['Memo[]', docs],
  ];
  expect(literalErrors(answers)).toEqual([]);
});

it('a private attribute in a user\'s answer is a type error (the check can fail)', () => {
  const errors = literalErrors([['UsersPermissionsUser', { ...ada.user, password: '$2a$10$x' }], ['UsersPermissionsUser', { ...ada.user, confirmationToken: 'c' }]]);
  expect(errors).toEqual([expect.stringMatching(/"password"' does not exist in type 'UsersPermissionsUser'/), expect.stringMatching(/"confirmationToken"' does not exist/)]);
});

it('UsersPermissionsUserInput is what POST /users takes: the password and the private codes written', async () => {
  const roles = await request(app).get('/api/users-permissions/roles').set(full);
  const authenticated = (roles.body.roles as { id: number; type: string }[]).find((r) => r.type === 'authenticated')!.id;
  const body: UsersPermissionsUserInput = { ...newUser, resetPasswordToken: 'reset-code', role: authenticated };
  const created = await request(app).post('/api/users').set(full).send(body);
  expect(created.status).toBe(201);
  expect(literalErrors([['UsersPermissionsUser', created.body]])).toEqual([]);
  const login = await request(app).post('/api/auth/local').send({ identifier: 'grace', password: newUser.password });
  expect(login.status).toBe(200);
  const reset = await request(app).post('/api/auth/reset-password').send({ code: 'reset-code', password: 'new-Pass-2', passwordConfirmation: 'new-Pass-2' });
  expect(reset.status).toBe(200);
});

it('relations to users through the typed Document Service run (users-usage.ts, run); users have no Document Service', async () => {
  expect(await usersUsage(router, ada.user.documentId)).toEqual({ usernames: ['ada', 'ada'], roles: ['authenticated', 'authenticated'] });
  expect(() => (router.documents as (uid: string) => unknown)('plugin::users-permissions.user')).toThrow(/unknown content type/);
});
