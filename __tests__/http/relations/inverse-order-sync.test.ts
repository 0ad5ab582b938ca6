import express from 'express';
import { createContentRouter, type ContentRouter } from '../../../lib';
import { api, ids } from '../../fixtures/relations-model';
import { everyActionPublic } from '../../helpers/every-action';
import { testEngine } from '../../helpers/test-engine';

/**
 * The order of a to-many `mappedBy` side where other write paths meet it: a relation marked non-localized on a
 * localized type (Strapi never shares a relation across locales) and the publish of the `mappedBy` side's document
 * (its published links are rebuilt from the draft's, as Strapi's publish does).
 */
type Body = Record<string, unknown>;

async function appOf(types: unknown[], i18n = false): Promise<{ http: ReturnType<typeof api>; router: ContentRouter }> {
  const router = createContentRouter({
    contentTypes: types as never,
    engine: testEngine(),
    upload: false,
    auth: everyActionPublic(types as never),
    ...(i18n ? { i18n: { locales: ['en', 'fr'], defaultLocale: 'en' } } : {}),
  });
  const app = express();
  app.use('/api', router);
  await router.ready;
  return { http: api(app), router };
}

const collection = (singular: string, plural: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  kind: 'collectionType',
  collectionName: plural,
  info: { singularName: singular, pluralName: plural, displayName: singular },
  options: { draftAndPublish: false },
  attributes,
  ...extra,
});

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
    const { http } = await appOf(types, true);
    const [p, p2] = [await http.create('people', { name: 'p' }), await http.create('people', { name: 'p2' })];
    const n0 = await http.create('notes', { title: 'n0', owner: p2 });
    const n1 = await http.create('notes', { title: 'n1', owner: p });
    await http.put(`/api/notes/${n1}?locale=fr`, { title: 'n1 fr' });
    const owner = async (locale: string) => ids(((await http.get(`/api/notes/${n1}?locale=${locale}&populate=owner`)).data as Body).owner);
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
