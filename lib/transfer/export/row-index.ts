import type { Engine } from '../../engine';
import type { Registry } from '../../schema';
import { readRows } from './read-rows';

interface Version {
  readonly id: number;
  readonly locale: string | null;
  readonly status: string;
}

/**
 * The rows of every document (id, locale, status by type and documentId): a relation stored as a documentId is
 * written as a link between rows, as Strapi stores it. Keys and small records only.
 */
export type RowIndex = Map<string, Map<string, Version[]>>;

export async function buildRowIndex(engine: Engine, registry: Registry): Promise<RowIndex> {
  const index: RowIndex = new Map();
  for (const ct of registry.contentTypes.values()) {
    const byDocument = new Map<string, Version[]>();
    index.set(ct.uid, byDocument);
    for await (const row of readRows(engine, ct.collectionName, { id: 1, documentId: 1, locale: 1, _status: 1 })) {
      const versions = byDocument.get(row.documentId as string) ?? [];
      byDocument.set(row.documentId as string, versions);
      versions.push({ id: row.id as number, locale: (row.locale as string | null) ?? null, status: row._status as string });
    }
  }
  return index;
}

/**
 * The row a relation from a row in (`status`, `locale`) to `documentId` points at, as the API resolves it
 * (docs/storage-model.md "Resolving relations"): the same status, the same locale (else the default one).
 */
export function targetRow(index: RowIndex, registry: Registry, uid: string, documentId: string, from: { status: string; locale: string | null }): number | undefined {
  const versions = index.get(uid)?.get(documentId);
  if (!versions?.length) return undefined;
  const locales = [from.locale, registry.i18n.defaultLocale];
  const score = (v: Version) => (v.status === from.status ? 0 : 2) + (locales.includes(v.locale) ? (v.locale === from.locale ? 0 : 0.5) : 1);
  return [...versions].sort((a, b) => score(a) - score(b) || a.id - b.id)[0]!.id;
}
