import request from 'supertest';
import { bearer, createUsersApp, FULL, type UsersApp } from './users-helpers';

type Tree = Record<string, { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }>;

// Issue 28 (Also): the permissions tree of GET /users-permissions/roles/:id lists what Strapi's getActions() lists
// (the content-api actions of every controller); findDrafts, this library's own action, only where it is granted.
describe('users-permissions: the permissions tree of a role', () => {
  let t: UsersApp;
  beforeAll(async () => {
    t = await createUsersApp();
  });
  const roleId = async (type: string): Promise<number> =>
    ((await request(t.app).get('/api/users-permissions/roles').set(bearer(FULL))).body.roles as { id: number; type: string }[]).find((r) => r.type === type)!.id;
  const tree = async (id: number): Promise<Tree> => (await request(t.app).get(`/api/users-permissions/roles/${id}`).set(bearer(FULL))).body.role.permissions as Tree;

  it("lists Strapi's actions: the core controllers', every method of upload's content-api, no findDrafts", async () => {
    const permissions = await tree(await roleId('authenticated'));
    expect(Object.keys(permissions['api::note']!.controllers.note!)).toEqual(['find', 'findOne', 'create', 'update', 'delete']);
    expect(Object.keys(permissions['plugin::upload']!.controllers['content-api']!)).toEqual(['find', 'findOne', 'destroy', 'updateFileInfo', 'replaceFile', 'uploadFiles', 'upload']);
    expect(permissions['api::note']!.controllers.note!.find).toEqual({ enabled: true, policy: '' });
    const all = (await request(t.app).get('/api/users-permissions/permissions').set(bearer(FULL))).body.permissions as Tree;
    expect(JSON.stringify(all)).not.toContain('findDrafts');
  });

  it('lists findDrafts where the role has it, so that writing the tree back keeps it', async () => {
    const id = await roleId('authenticated');
    const permissions = await tree(id);
    permissions['api::note']!.controllers.note!.findDrafts = { enabled: true, policy: '' };
    await request(t.app).put(`/api/users-permissions/roles/${id}`).set(bearer(FULL)).send({ permissions }).expect(200);
    const read = await tree(id);
    expect(read['api::note']!.controllers.note!.findDrafts).toEqual({ enabled: true, policy: '' });
    expect(read['api::tag']!.controllers.tag!.findDrafts).toBeUndefined();
    // Written back as read: findDrafts stays (PUT replaces the whole set).
    await request(t.app).put(`/api/users-permissions/roles/${id}`).set(bearer(FULL)).send({ permissions: read }).expect(200);
    expect((await tree(id))['api::note']!.controllers.note!.findDrafts).toEqual({ enabled: true, policy: '' });
  });
});
