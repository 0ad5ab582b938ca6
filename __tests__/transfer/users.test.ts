import path from 'node:path';
import request from 'supertest';
import { exportStrapiExport } from '../../lib/transfer/export-strapi-export';
import { importStrapiExport } from '../../lib/transfer/import-strapi-export';
import { FIXTURE, readExport, tempDir, TOKEN, type BlogTarget, type ExportLines } from './transfer-helpers';
import { EXPECTED_GRANTS, HASHES, PASSWORDS, PERMISSION, ROLE, ROLES, USER, USERS, usersExport, usersTarget } from './users-export';

type Row = Record<string, unknown>;

const login = (target: BlogTarget, identifier: string, password: string) => request(target.app).post('/api/auth/local').send({ identifier, password });

async function jwtOf(target: BlogTarget, name: 'alice' | 'bob'): Promise<string> {
  const res = await login(target, `${name}@example.com`, PASSWORDS[name]);
  expect({ name, status: res.status }).toEqual({ name, status: 200 });
  return res.body.jwt as string;
}

/** The stored rows of a collection without the engine's `_id` and the store's own ids, by id. */
async function stored(target: BlogTarget, collection: string): Promise<Row[]> {
  return (await target.engine.find(collection, {}, { sort: { id: 1 } })).map(({ _id, id, ...row }) => (void _id, void id, row));
}

let target: BlogTarget;
let seeded: Row[];

beforeAll(async () => {
  target = await usersTarget();
  seeded = await target.engine.find('up_roles', {});
  const result = await importStrapiExport(target.router, await usersExport(), { uploads: { directory: target.uploads } });
  expect(result.rows).toEqual({ [ROLE]: 3, [USER]: 2, 'api::note.note': 2 });
  expect(Object.keys(result.kept).filter((k) => k.includes('users-permissions'))).toEqual([]);
});

describe('a Strapi export with users, roles and permissions, into a router with auth.users', () => {
  it('stores the users with their bcrypt hashes unchanged: they log in with their old passwords', async () => {
    const users = await target.engine.find('up_users', {}, { sort: { id: 1 } });
    expect(users.map((u) => [u.username, u.password, u.confirmationToken])).toEqual([['alice', HASHES.alice, null], ['bob', HASHES.bob, 'pending-token']]);
    const res = await login(target, 'alice@example.com', PASSWORDS.alice);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ username: 'alice', email: 'alice@example.com', documentId: USERS[0]!.data.documentId });
    expect((await login(target, 'bob', PASSWORDS.bob)).status).toBe(200);
    const wrong = await login(target, 'alice', PASSWORDS.bob);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid identifier or password' });
  });

  it('gives each role its grants in Strapi\'s order, in place of the roles seeded at start-up', async () => {
    expect(seeded.map((r) => r.type).sort()).toEqual(['authenticated', 'public']);
    const roles = await target.engine.find('up_roles', {}, { sort: { id: 1 } });
    expect(roles.map((r) => ({ documentId: r.documentId, name: r.name, type: r.type, permissions: r.permissions }))).toEqual(
      ROLES.map((r) => ({ documentId: r.data.documentId, name: r.data.name, type: r.data.type, permissions: EXPECTED_GRANTS[r.data.documentId] })),
    );
    const users = await target.engine.find('up_users', {}, { sort: { id: 1 } });
    expect(users.map((u) => u.role)).toEqual(['roleauthenticated0000001', 'roleeditor00000000000003']);
  });

  it('serves under the imported grants, with the relations from content to users kept', async () => {
    const alice = await jwtOf(target, 'alice');
    const notes = await request(target.app).get('/api/notes?populate=owner&sort=id').set('Authorization', `Bearer ${alice}`);
    expect(notes.status).toBe(200);
    expect(notes.body.data.map((n: { title: string; owner: { username: string } }) => [n.title, n.owner.username])).toEqual([['Note of alice', 'alice'], ['Note of bob', 'bob']]);
    expect((await request(target.app).post('/api/notes').set('Authorization', `Bearer ${alice}`).send({ data: { title: 'x' } })).status).toBe(403);
    const bob = await jwtOf(target, 'bob'); // Editor: may create notes, may not find users (populate leaves them out)
    expect((await request(target.app).post('/api/notes').set('Authorization', `Bearer ${bob}`).send({ data: { title: 'by bob' } })).status).toBe(201);
    const asBob = await request(target.app).get('/api/notes?populate=owner').set('Authorization', `Bearer ${bob}`);
    expect(asBob.body.data[0].owner).toBeUndefined();
    expect((await request(target.app).get('/api/notes')).status).toBe(403); // Public: auth.callback only
  });
});

describe('our export of users, roles and grants', () => {
  let file: string;
  let ours: ExportLines;
  beforeAll(async () => {
    file = path.join(tempDir('users-export'), 'export.tar.gz');
    await exportStrapiExport(target.router, file, { uploads: { directory: target.uploads } });
    ours = await readExport(file);
  });

  it('writes them as Strapi does: users with their hashes, roles without a permissions field, a permission row per grant', () => {
    const users = ours.entities.filter((e) => e.type === USER);
    expect(users.map((e) => e.data)).toEqual(USERS.map((u) => u.data));
    const roles = ours.entities.filter((e) => e.type === ROLE);
    expect(roles.map((e) => e.data)).toEqual(ROLES.map((r) => r.data));
    const actions = new Map(ours.entities.filter((e) => e.type === PERMISSION).map((e) => [e.id, e.data.action]));
    const byRole = new Map(roles.map((r) => [r.id, r.data.documentId as string]));
    const grants: Record<string, unknown[]> = {};
    const links = ours.links.filter((l) => l.left.type === PERMISSION && l.left.field === 'role');
    for (const l of links.sort((a, b) => (a.right.pos as number) - (b.right.pos as number))) (grants[byRole.get(l.right.ref as number)!] ??= []).push(actions.get(l.left.ref as number));
    expect(grants).toEqual(EXPECTED_GRANTS);
    expect(links[0]).toEqual({ kind: 'relation.basic', relation: 'manyToOne', left: { type: PERMISSION, field: 'role', ref: expect.any(Number) }, right: { type: ROLE, field: 'permissions', ref: expect.any(Number), pos: expect.any(Number) } });
    const roleLinks = ours.links.filter((l) => l.left.type === USER && l.left.field === 'role');
    expect(roleLinks.map((l) => [l.right.type, l.right.field, byRole.get(l.right.ref as number)])).toEqual([[ROLE, 'users', 'roleauthenticated0000001'], [ROLE, 'users', 'roleeditor00000000000003']]);
  });

  it('writes the three types\' schemas as Strapi 5.54 has them', async () => {
    const fixture = await readExport(FIXTURE);
    const strapi = (fixture.other.get('schemas') as Row[]).filter((s) => String(s.uid).startsWith('plugin::users-permissions.'));
    const mine = (ours.other.get('schemas') as Row[]).filter((s) => String(s.uid).startsWith('plugin::users-permissions.'));
    expect(mine.sort((a, b) => String(a.uid).localeCompare(String(b.uid)))).toEqual(strapi.sort((a, b) => String(a.uid).localeCompare(String(b.uid))));
  });

  it('imports into an empty store with the same users (who log in), roles and grants', async () => {
    const copy = await usersTarget();
    await importStrapiExport(copy.router, file, { uploads: { directory: copy.uploads } });
    for (const collection of ['up_users', 'up_roles', 'notes']) {
      expect({ collection, rows: await stored(copy, collection) }).toEqual({ collection, rows: await stored(target, collection) });
    }
    await jwtOf(copy, 'alice');
    await jwtOf(copy, 'bob');
  });
});

describe('Strapi\'s own export of the blog (roles and permissions, no user) with auth.users', () => {
  it('gives the roles the grants Strapi had: the Public role reads what it read in Strapi', async () => {
    const blog = await usersTarget();
    const fixture = await readExport(FIXTURE);
    const result = await importStrapiExport(blog.router, FIXTURE, { uploads: { directory: blog.uploads } });
    expect(result.rows[ROLE]).toBe(2);
    const actions = new Map(fixture.entities.filter((e) => e.type === PERMISSION).map((e) => [e.id, e.data.action]));
    const expected = new Map<unknown, unknown[]>();
    const links = fixture.links.filter((l) => l.left.type === PERMISSION && l.left.field === 'role').sort((a, b) => (a.right.pos as number) - (b.right.pos as number));
    for (const l of links) expected.set(l.right.ref, [...(expected.get(l.right.ref) ?? []), actions.get(l.left.ref as number)]);
    const roles = fixture.entities.filter((e) => e.type === ROLE);
    const got = await blog.engine.find('up_roles', {}, { sort: { id: 1 } });
    expect(got.map((r) => [r.documentId, r.permissions])).toEqual(roles.map((r) => [r.data.documentId, expected.get(r.id)]));
    expect((await request(blog.app).get('/api/articles')).status).toBe(200);
    expect((await request(blog.app).get('/api/authors')).status).toBe(403);
  });
});

describe('only the import stores a hash as it is', () => {
  it('a password given to the /users routes, even a bcrypt hash, is hashed: it never becomes a usable hash', async () => {
    const copy = await usersTarget();
    await importStrapiExport(copy.router, await usersExport(), { uploads: { directory: copy.uploads } });
    const [alice] = await copy.engine.find('up_users', { username: 'alice' });
    const put = await request(copy.app).put(`/api/users/${String(alice!.id)}`).set('Authorization', `Bearer ${TOKEN}`).send({ password: HASHES.bob });
    expect(put.status).toBe(200);
    const [after] = await copy.engine.find('up_users', { username: 'alice' });
    expect(after!.password).not.toBe(HASHES.bob);
    expect((await login(copy, 'alice', PASSWORDS.bob)).status).toBe(400);
    const [role] = await copy.engine.find('up_roles', { type: 'authenticated' });
    const created = await request(copy.app).post('/api/users').set('Authorization', `Bearer ${TOKEN}`).send({ username: 'carol', email: 'carol@example.com', password: HASHES.bob, role: role!.id });
    expect(created.status).toBe(201);
    expect((await copy.engine.find('up_users', { username: 'carol' }))[0]!.password).not.toBe(HASHES.bob);
  });
});
