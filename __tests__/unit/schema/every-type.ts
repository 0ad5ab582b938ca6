import { createRegistry } from '../../../lib/schema';
import type { ComponentSchema, ContentTypeSchema, Registry } from '../../../lib/schema';

/** A synthetic model with every Strapi attribute type and option the body validator knows. */
export function everyTypeRegistry(): Registry {
  return createRegistry(everyTypeSchemas());
}

/** The schemas of everyTypeRegistry(), as createContentRouter and generateTypes take them. */
export function everyTypeSchemas(): { contentTypes: ContentTypeSchema[]; components: Record<string, ComponentSchema> } {
  return {
    contentTypes: [
      {
        kind: 'collectionType',
        collectionName: 'things',
        info: { singularName: 'thing', pluralName: 'things' },
        options: { draftAndPublish: true },
        pluginOptions: { i18n: { localized: true } },
        attributes: {
          name: { type: 'string', required: true, minLength: 2, maxLength: 10 },
          code: { type: 'string', regex: '^[A-Z]{3}$' },
          text: { type: 'text' },
          rich: { type: 'richtext' },
          content: { type: 'blocks' },
          email: { type: 'email' },
          secret: { type: 'password', private: true },
          slug: { type: 'uid', targetField: 'name' },
          count: { type: 'integer', min: 1, max: 10, default: 5 },
          big: { type: 'biginteger' },
          ratio: { type: 'float', min: 0.5 },
          price: { type: 'decimal', max: 99.99 },
          flag: { type: 'boolean', default: false },
          day: { type: 'date' },
          at: { type: 'time' },
          when: { type: 'datetime' },
          stamp: { type: 'timestamp' },
          meta: { type: 'json' },
          size: { type: 'enumeration', enum: ['s', 'm', 'l'] },
          cover: { type: 'media', multiple: false },
          photos: { type: 'media', multiple: true },
          owner: { type: 'relation', relation: 'manyToOne', target: 'api::person.person' },
          friends: { type: 'relation', relation: 'manyToMany', target: 'api::person.person' },
          part: { type: 'component', component: 'parts.part', required: true },
          parts: { type: 'component', component: 'parts.part', repeatable: true, min: 2, max: 3 },
          zone: { type: 'dynamiczone', components: ['parts.part', 'parts.note'], max: 2 },
        },
      },
      {
        kind: 'collectionType',
        collectionName: 'people',
        info: { singularName: 'person', pluralName: 'people' },
        attributes: { name: { type: 'string' } },
      },
    ],
    components: {
      'parts.part': {
        attributes: {
          label: { type: 'string', required: true },
          qty: { type: 'integer' },
          picture: { type: 'media' },
          person: { type: 'relation', relation: 'oneToOne', target: 'api::person.person' },
        },
      },
      'parts.note': { attributes: { body: { type: 'text' }, day: { type: 'date' } } },
      'parts.unused': { attributes: { x: { type: 'string' } } },
    },
  };
}
