import request from 'supertest';
import { bearer, createUsersApp, FULL, registerUser, WRITER, type UsersApp } from './users-helpers';

/**
 * Relations in request bodies respect the caller's grants (Strapi's input sanitizer): a relation to a type the
 * caller cannot `find` is dropped, so the answer is the same whether the id exists or not, and nothing is linked.
 */
describe('relations in bodies respect the caller\'s grants', () => {
  let t: UsersApp;
  let tagIds: number[];
  let jwt: string;
  let userId: number;
  beforeAll(async () => {
    t = await createUsersApp();
    tagIds = [];
    for (const name of ['a', 'b']) {
      tagIds.push((await request(t.app).post('/api/tags').set(bearer(FULL)).send({ data: { name } })).body.data.id as number);
    }
    ({ jwt, id: userId } = await registerUser(t.app, 'writer'));
  });

  const stored = async (documentId: string) => (await t.engine.find('notes', { documentId }))[0]!;

  it.each([
    ['a custom API token that cannot find tags nor users', () => WRITER],
    ['a JWT of the Authenticated role, which cannot find tags', () => jwt],
  ])('%s: 201 for existing and unknown ids alike, nothing linked', async (_label, token) => {
    const answers = new Set<string>();
    for (const id of [...tagIds, 999, 1000]) {
      const res = await request(t.app).post('/api/notes').set(bearer(token())).send({ data: { title: `n${id}`, tags: { connect: [id] } } });
      answers.add(String(res.status));
      expect(res.status).toBe(201);
      expect((await stored(res.body.data.documentId as string)).tags).toEqual([]);
      const upd = await request(t.app).put(`/api/notes/${res.body.data.documentId}`).set(bearer(token())).send({ data: { tags: [id] } });
      expect(upd.status).toBe(200);
      expect((await stored(res.body.data.documentId as string)).tags).toEqual([]);
    }
    expect([...answers]).toEqual(['201']);
  });

  it('keeps the relations a caller may find: the Authenticated role links users, the full-access token links tags', async () => {
    const mine = await request(t.app).post('/api/notes').set(bearer(jwt)).send({ data: { title: 'mine', owner: userId } });
    expect((await stored(mine.body.data.documentId as string)).owner).toEqual(expect.any(String));
    const unknownUser = await request(t.app).post('/api/notes').set(bearer(jwt)).send({ data: { title: 'x', owner: 987654 } });
    expect(unknownUser.status).toBe(400); // a type it may find: Strapi's "not found" answer
    const custom = await request(t.app).post('/api/notes').set(bearer(WRITER)).send({ data: { title: 'y', owner: 987654 } });
    expect(custom.status).toBe(201); // users are not findable by this token: dropped
    const full = await request(t.app).post('/api/notes').set(bearer(FULL)).send({ data: { title: 'z', tags: { connect: [tagIds[0]] } } });
    expect((await stored(full.body.data.documentId as string)).tags).toHaveLength(1);
    expect((await request(t.app).post('/api/notes').set(bearer(FULL)).send({ data: { title: 'z2', tags: [999] } })).status).toBe(400);
  });
});
