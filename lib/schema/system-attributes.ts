import type { Attribute, ScalarAttribute, ScalarType } from './types';

function systemField(name: string, type: ScalarType): ScalarAttribute {
  return { name, kind: 'scalar', type, required: false, private: false, localized: true, system: true, unique: false, raw: { type } };
}

/** The fields every row has, addressable in filters, sort and fields but never writable. */
export function systemAttributes(localized: boolean): Record<string, Attribute> {
  const attrs: Record<string, Attribute> = {
    id: systemField('id', 'integer'),
    documentId: systemField('documentId', 'string'),
    createdAt: systemField('createdAt', 'datetime'),
    updatedAt: systemField('updatedAt', 'datetime'),
    publishedAt: systemField('publishedAt', 'datetime'),
  };
  if (localized) attrs.locale = systemField('locale', 'string');
  return attrs;
}

/** The upload plugin's file type (`plugin::upload.file`), stored in the `files` collection. */
export const uploadFileDefinition = {
  kind: 'collectionType',
  uid: 'plugin::upload.file',
  collectionName: 'files',
  info: { singularName: 'file', pluralName: 'files', displayName: 'File' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string', required: true },
    alternativeText: { type: 'text' },
    caption: { type: 'text' },
    focalPoint: { type: 'json' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    formats: { type: 'json' },
    hash: { type: 'string', required: true },
    ext: { type: 'string' },
    mime: { type: 'string', required: true },
    size: { type: 'decimal', required: true },
    url: { type: 'text', required: true },
    previewUrl: { type: 'text' },
    provider: { type: 'string', required: true },
    provider_metadata: { type: 'json' },
    // Strapi's file has `related` (every entry that uses the file, any type) and a private `folder`. The morph
    // relation is loaded and not served, as on every type (docs/rest-api.md "Morph relations"): naming it in a
    // query is a 400 that says why. There are no folders here, so `folder` is an unknown key, as Strapi answers
    // for a private one.
    related: { type: 'relation', relation: 'morphToMany', configurable: false },
  },
} as const;
