import type { ComponentSchema, ContentTypeSchema } from '../../../lib';

/**
 * The model of the cursor pagination suite: entries (draft & publish, localized) with a field of each orderable
 * type (nullable), a single component, a repeatable one, a json field and a relation to people.
 */
export const cursorContentTypes: readonly ContentTypeSchema[] = [
  {
    kind: 'collectionType',
    collectionName: 'entries',
    info: { singularName: 'entry', pluralName: 'entries', displayName: 'Entry' },
    options: { draftAndPublish: true },
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      title: { type: 'string' },
      rank: { type: 'integer' },
      score: { type: 'float' },
      big: { type: 'biginteger' },
      flag: { type: 'boolean' },
      day: { type: 'date' },
      seo: { type: 'component', component: 'cursor.seo' },
      tags: { type: 'component', component: 'cursor.seo', repeatable: true },
      meta: { type: 'json' },
      author: { type: 'relation', relation: 'manyToOne', target: 'api::person.person' },
    },
  },
  {
    kind: 'collectionType',
    collectionName: 'people',
    info: { singularName: 'person', pluralName: 'people', displayName: 'Person' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' } },
  },
];

export const cursorComponents: Readonly<Record<string, ComponentSchema>> = {
  'cursor.seo': { collectionName: 'components_cursor_seos', attributes: { label: { type: 'string' } } },
};

/** A random entry: every field may be missing (null), values repeat a lot (ties), strings are not ASCII only. */
export function randomEntry(random: () => number): Record<string, unknown> {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const maybe = <T>(value: T): T | null => (random() < 0.25 ? null : value);
  const entry: Record<string, unknown> = {
    title: maybe(pick(['a', 'B', 'b', 'é', 'Zed', 'ab', ''])),
    rank: maybe(pick([-3, 0, 1, 2, 5])),
    score: maybe(pick([0.5, 1.25, -2, 1e21])),
    big: maybe(pick(['-12', '3', '10000000000000000000', '-10000000000000000000', '7'])),
    flag: maybe(pick([true, false])),
    day: maybe(pick(['2024-01-01', '1999-12-31', '2030-06-15'])),
  };
  const seo = random();
  if (seo < 0.4) entry.seo = { label: pick(['x', 'Y', 'y', 'ü']) };
  else if (seo < 0.6) entry.seo = {};
  return entry;
}
