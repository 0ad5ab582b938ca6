// A test model with every attribute type Strapi 5 has (issue 33): a draft & publish, localized collection type
// `kitchen-sink` with each scalar type, media single and multiple, every relation kind to `tag`, a component, a
// repeatable component holding a nested one, a dynamic zone and a custom field (stored as a string). The browser
// test fills every field in the admin and checks what the REST API stores.
import type { ComponentSchema, ContentTypeSchema } from '../../lib';

const localized = { i18n: { localized: true } };

export const everyTypeContentTypes: ContentTypeSchema[] = [
  {
    kind: 'collectionType',
    collectionName: 'kitchen_sinks',
    info: { singularName: 'kitchen-sink', pluralName: 'kitchen-sinks', displayName: 'Kitchen sink' },
    options: { draftAndPublish: true },
    pluginOptions: localized,
    attributes: {
      name: { type: 'string', required: true },
      summary: { type: 'text' },
      notes: { type: 'richtext' },
      body: { type: 'blocks' },
      contact: { type: 'email' },
      secret: { type: 'password' },
      slug: { type: 'uid', targetField: 'name' },
      count: { type: 'integer' },
      big: { type: 'biginteger' },
      price: { type: 'decimal' },
      ratio: { type: 'float' },
      day: { type: 'date' },
      at: { type: 'time' },
      moment: { type: 'datetime' },
      enabled: { type: 'boolean' },
      size: { type: 'enumeration', enum: ['small', 'medium', 'large'] },
      extra: { type: 'json' },
      picture: { type: 'media', multiple: false, allowedTypes: ['images', 'files'] },
      pictures: { type: 'media', multiple: true, allowedTypes: ['images'] },
      mainTag: { type: 'relation', relation: 'oneToOne', target: 'api::tag.tag' },
      primaryTag: { type: 'relation', relation: 'manyToOne', target: 'api::tag.tag', inversedBy: 'primaryOf' },
      tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'sinks' },
      oneTag: { type: 'relation', relation: 'oneWay', target: 'api::tag.tag' },
      someTags: { type: 'relation', relation: 'manyWay', target: 'api::tag.tag' },
      address: { type: 'component', component: 'parts.address', repeatable: false },
      steps: { type: 'component', component: 'parts.step', repeatable: true },
      sections: { type: 'dynamiczone', components: ['parts.address', 'parts.note'] },
      color: { type: 'customField', customField: 'plugin::color-picker.color' },
    },
  } as ContentTypeSchema,
  {
    kind: 'collectionType',
    collectionName: 'tags',
    info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
    options: { draftAndPublish: false },
    attributes: {
      label: { type: 'string', required: true },
      primaryOf: { type: 'relation', relation: 'oneToMany', target: 'api::kitchen-sink.kitchen-sink', mappedBy: 'primaryTag' },
      sinks: { type: 'relation', relation: 'manyToMany', target: 'api::kitchen-sink.kitchen-sink', mappedBy: 'tags' },
    },
  } as ContentTypeSchema,
];

export const everyTypeComponents: Record<string, ComponentSchema> = {
  'parts.address': { collectionName: 'components_parts_addresses', info: { displayName: 'Address' }, attributes: { street: { type: 'string' }, city: { type: 'string' } } } as ComponentSchema,
  'parts.note': { collectionName: 'components_parts_notes', info: { displayName: 'Note' }, attributes: { text: { type: 'text' } } } as ComponentSchema,
  'parts.step': {
    collectionName: 'components_parts_steps',
    info: { displayName: 'Step' },
    attributes: { title: { type: 'string' }, minutes: { type: 'integer' }, where: { type: 'component', component: 'parts.address', repeatable: false } },
  } as ComponentSchema,
};

export const everyTypeCustomFields = { 'plugin::color-picker.color': { type: 'string' as const } };
