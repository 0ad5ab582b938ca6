import type { Registry } from '../schema';
import type { IndexSpec } from './types';

/** The collections and indexes of a registry (docs/storage-model.md "Indexes"). */
export function indexesFor(registry: Registry): { name: string; indexes: IndexSpec[] }[] {
  const out: { name: string; indexes: IndexSpec[] }[] = [];
  for (const ct of registry.contentTypes.values()) {
    const indexes: IndexSpec[] = [
      { name: 'document_locale_status', keys: { documentId: 1, locale: 1, _status: 1 }, unique: true },
      { name: 'id', keys: { id: 1 }, unique: true },
    ];
    for (const a of Object.values(ct.attributes)) {
      if ((a.kind === 'relation' && a.owner) || a.kind === 'media') indexes.push({ name: a.name, keys: { [a.name]: 1 } });
    }
    out.push({ name: ct.collectionName, indexes });
  }
  return out;
}
