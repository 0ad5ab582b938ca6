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
  },
} as const;
