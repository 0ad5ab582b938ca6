import request from 'supertest';
import type { ContentRouter } from '../../../lib';
import { collection, createModelApp, shelvesContentTypes, type Api, type Body } from '../../fixtures/relations-model';
import { bearer, createUsersApp, FULL, registerUser } from '../users/users-helpers';

/**
 * The order of a to-many `mappedBy` side where other write paths meet it: a relation marked non-localized on a
 * localized type (Strapi never shares a relation across locales) and the publish of the `mappedBy` side's document
 * (its published links are rebuilt from the draft's, as Strapi's publish does), the users a role deletion moves.
 */
describe('a relation marked non-localized on a localized type', () => {
  const types = [
    collection('person', 'people', { name: { type: 'string' }, notes: { type: 'relation', relation: 'oneToMany', target: 'api::note.note', mappedBy: 'owner' } }),
    collection(
      'note',
      'notes',
      {
        title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
        owner: { type: 'relation', relation: 'manyToOne', target: 'api::person.person', inversedBy: 'notes', pluginOptions: { i18n: { localized: false } } },
      },
      { pluginOptions: { i18n: { localized: true } } },
    ),
  ];

  it('is kept per locale, as Strapi 5 keeps every relation: never copied into the other locales, so never unplaced there', async () => {
    const { http } = await createModelApp(types, { i18n: { locales: ['en', 'fr'], defaultLocale: 'en' } });
    const [p, p2] = [await http.create('people', { name: 'p' }), await http.create('people', { name: 'p2' })];
    const n0 = await http.create('notes', { title: 'n0', owner: p2 });
    const n1 = await http.create('notes', { title: 'n1', owner: p });
    await http.put(`/api/notes/${n1}?locale=fr`, { title: 'n1 fr' });
    const owner = async (locale: string) => http.related(`/api/notes/${n1}?locale=${locale}&populate=owner`, 'owner');
    expect(await owner('fr')).toBeNull();
    await http.put(`/api/notes/${n1}?locale=fr`, { owner: p });
    await http.put(`/api/notes/${n1}`, { owner: p2 });
    expect([await owner('en'), await owner('fr')]).toEqual([p2, p]);
    // The person's list is every localization that links it, in the order kept there.
    const titles = async (person: string) => (((await http.get(`/api/people/${person}?populate=notes`)).data as Body).notes as Body[]).map((n) => n.title);
    expect(await titles(p2)).toEqual(['n0', 'n1']);
    expect(await titles(p)).toEqual(['n1 fr']);
    void n0;
  });
});

describe('publishing or discarding the document of a mappedBy side whose owners have draft & publish', () => {
  const dp = { options: { draftAndPublish: true } };
  const types = [
    ...shelvesContentTypes,
    collection('box', 'boxes', { name: { type: 'string' }, cards: { type: 'relation', relation: 'manyToMany', target: 'api::card.card', mappedBy: 'boxes' } }, dp),
    collection('card', 'cards', { title: { type: 'string' }, boxes: { type: 'relation', relation: 'manyToMany', target: 'api::box.box', inversedBy: 'cards' } }, dp),
  ];
  let http: Api;
  let router: ContentRouter;
  beforeEach(async () => {
    ({ http, router } = await createModelApp(types));
  });

  it('publish: the published side gets the draft\'s links (to published owners only) in the draft\'s order', async () => {
    const s = await http.create('shelves', { name: 's' });
    const [i1, i2, i3] = [await http.create('items', { title: 'i1', shelf: s }), await http.create('items', { title: 'i2', shelf: s }), await http.create('items', { title: 'i3', shelf: s })];
    const i4 = await http.create('items', { title: 'i4' });
    const i5 = await http.create('items', { title: 'i5 never published', shelf: s }, '?status=draft');
    // Draft-only writes on the items: the draft side is now [i2, i3, i5, i4], the published one [i1, i2, i3].
    await http.put(`/api/items/${i1}?status=draft`, { shelf: null });
    await http.put(`/api/items/${i4}?status=draft`, { shelf: s });
    expect(await http.related(`/api/shelves/${s}?status=draft&populate=items`, 'items')).toEqual([i2, i3, i5, i4]);
    expect(await http.related(`/api/shelves/${s}?populate=items`, 'items')).toEqual([i1, i2, i3]);
    await http.put(`/api/shelves/${s}`, { name: 's published' });
    expect(await http.related(`/api/shelves/${s}?populate=items`, 'items')).toEqual([i2, i3, i4]);
    expect(await http.related(`/api/items/${i1}?populate=shelf`, 'shelf')).toBeNull();
    expect(await http.related(`/api/items/${i4}?populate=shelf`, 'shelf')).toBe(s);
    expect(await http.related(`/api/shelves/${s}?status=draft&populate=items`, 'items')).toEqual([i2, i3, i5, i4]);
  });

  it('publish, manyToMany: the draft\'s links are added, in its order, and the published links it dropped are kept after them', async () => {
    const [b, other] = [await http.create('boxes', { name: 'b' }), await http.create('boxes', { name: 'other' })];
    const c1 = await http.create('cards', { title: 'c1', boxes: [other, b] });
    const c2 = await http.create('cards', { title: 'c2', boxes: [b] });
    const c3 = await http.create('cards', { title: 'c3' });
    await http.put(`/api/cards/${c2}?status=draft`, { boxes: [] });
    await http.put(`/api/cards/${c3}?status=draft`, { boxes: [b] });
    await http.put(`/api/cards/${c1}?status=draft`, { boxes: { connect: [{ documentId: b, position: { end: true } }] } });
    await http.put(`/api/boxes/${b}`, { name: 'b published' });
    expect(await http.related(`/api/boxes/${b}?populate=cards`, 'cards')).toEqual([c1, c3, c2]);
    expect(await http.related(`/api/cards/${c1}?populate=boxes`, 'boxes')).toEqual([other, b]);
    expect(await http.related(`/api/cards/${c2}?populate=boxes`, 'boxes')).toEqual([b]);
    expect(await http.related(`/api/cards/${c3}?populate=boxes`, 'boxes')).toEqual([b]);
  });

  it('a draft-only write from the mappedBy side changes the draft side only; publishing carries it over', async () => {
    const s = await http.create('shelves', { name: 's' });
    const [i1, i2, i3] = [await http.create('items', { title: 'i1', shelf: s }), await http.create('items', { title: 'i2' }), await http.create('items', { title: 'i3', shelf: s })];
    await http.put(`/api/shelves/${s}?status=draft`, { items: { connect: [{ documentId: i2, position: { start: true } }], disconnect: [i3] } });
    expect(await http.related(`/api/shelves/${s}?status=draft&populate=items`, 'items')).toEqual([i2, i1]);
    expect(await http.related(`/api/shelves/${s}?populate=items`, 'items')).toEqual([i1, i3]);
    expect(await http.related(`/api/items/${i2}?populate=shelf`, 'shelf')).toBeNull();
    await http.put(`/api/shelves/${s}`, {});
    expect(await http.related(`/api/shelves/${s}?populate=items`, 'items')).toEqual([i2, i1]);
    expect(await http.related(`/api/items/${i3}?populate=shelf`, 'shelf')).toBeNull();
  });

  it('discard: the draft side gets the published side\'s links and order back', async () => {
    const s = await http.create('shelves', { name: 's' });
    const [i1, i2] = [await http.create('items', { title: 'i1', shelf: s }), await http.create('items', { title: 'i2', shelf: s })];
    await http.put(`/api/items/${i1}?status=draft`, { shelf: null });
    await http.put(`/api/shelves/${s}?status=draft`, { name: 's draft' });
    expect(await http.related(`/api/shelves/${s}?status=draft&populate=items`, 'items')).toEqual([i2]);
    await router.documents('api::shelf.shelf').discardDraft(s);
    expect(await http.related(`/api/shelves/${s}?status=draft&populate=items`, 'items')).toEqual([i1, i2]);
    expect(await http.related(`/api/items/${i1}?status=draft&populate=shelf`, 'shelf')).toBe(s);
  });
});

describe('users moved by the deletion of their role', () => {
  it('go at the end of the Public role\'s users, in the deleted role\'s order, one after another as Strapi updates them', async () => {
    const t = await createUsersApp();
    const [a, b, c, d] = [await registerUser(t.app, 'anna'), await registerUser(t.app, 'bert'), await registerUser(t.app, 'cleo'), await registerUser(t.app, 'dora')];
    expect((await request(t.app).post('/api/users-permissions/roles').set(bearer(FULL)).send({ name: 'Editors', permissions: {} })).status).toBe(200);
    const roles = (await request(t.app).get('/api/users-permissions/roles').set(bearer(FULL))).body.roles as { id: number; type: string }[];
    const [publicRole, editors] = [roles.find((r) => r.type === 'public')!, roles.find((r) => r.type === 'editors')!];
    const move = async (user: { id: number }, role: { id: number }) => expect((await request(t.app).put(`/api/users/${user.id}`).set(bearer(FULL)).send({ role: role.id })).status).toBe(200);
    for (const [user, role] of [[b, publicRole], [d, publicRole], [c, editors], [a, editors]] as const) await move(user, role);
    // The users of the role of `user`, as a populate of the user's role lists them.
    const users = async (user: { id: number }) => {
      const res = await request(t.app).get(`/api/users/${user.id}?populate[role][populate][users][fields][0]=username`).set(bearer(FULL));
      return ((res.body as { role: { users: Body[] } }).role.users).map((u) => u.username);
    };
    expect(await users(a)).toEqual(['cleo', 'anna']);
    expect(await users(b)).toEqual(['bert', 'dora']);
    await request(t.app).delete(`/api/users-permissions/roles/${editors.id}`).set(bearer(FULL)).expect(200);
    expect(await users(b)).toEqual(['bert', 'dora', 'cleo', 'anna']);
  });
});
