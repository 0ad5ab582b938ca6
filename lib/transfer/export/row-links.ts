import { UPLOAD_FILE_UID, type ContentType, type Registry } from '../../schema';
import { fileFolderLink } from '../media-folders';
import type { HeldLink } from './entity-data';
import { inverseKey, type InverseRanks } from './inverse-ranks';
import { targetRow, type RowIndex } from './row-index';

type Link = Record<string, unknown>;


function attributesOf(registry: Registry, uid: string) {
  return registry.contentTypes.get(uid)?.attributes ?? registry.component(uid).attributes;
}

/** The `localizations` link Strapi writes for every row of every content type (its `document_id` join column). */
export function localizationsLink(type: string, ref: unknown, documentId: unknown): Link {
  return { kind: 'relation.circular', relation: 'oneToMany', left: { type, ref, field: 'localizations' }, right: { type, ref: documentId } };
}

/**
 * The link lines of one row and its components, as `strapi export` writes them (strapi/strapi
 * packages/core/data-transfer/src/strapi/queries/link.ts): a relation between the rows Strapi would link (same
 * status, same locale), `pos` the order on the owning side and on a to-many inverse side (the kept order: inverse-ranks); a medium as a morph
 * link from the file (`related`) with its position; the row's `localizations` link, as Strapi writes it for
 * every row.
 */
export function rowLinks(registry: Registry, index: RowIndex, ranks: InverseRanks, ct: ContentType, row: Record<string, unknown>, held: readonly HeldLink[]): Link[] {
  const from = { status: row._status as string, locale: (row.locale as string | null) ?? null };
  const out: Link[] = [];
  for (const { type, ref, field, values } of held) {
    const a = attributesOf(registry, type)[field]!;
    if (a.kind === 'media') {
      values.forEach((fileId, i) => {
        out.push({ kind: 'relation.morph', relation: 'morphToMany', left: { type: UPLOAD_FILE_UID, field: 'related', ref: fileId }, right: { ref, pos: i + 1, type, field } });
      });
      continue;
    }
    if (a.kind !== 'relation') continue;
    const inverse = a.inversedBy ? attributesOf(registry, a.target)[a.inversedBy] : undefined;
    const inverseToMany = inverse?.kind === 'relation' && inverse.toMany;
    values.forEach((documentId, i) => {
      const target = targetRow(index, registry, a.target, documentId as string, from);
      if (target === undefined) return; // a documentId no row has (a target deleted meanwhile): nothing to link
      const right: Link = { type: a.target, ...(a.inversedBy ? { field: a.inversedBy } : {}), ref: target };
      if (inverseToMany) right.pos = ranks.get(inverseKey(a.target, target, a.inversedBy!, ref)) ?? null;
      const left: Link = { type, field, ref, ...(a.toMany ? { pos: i + 1 } : {}) };
      out.push({ kind: a.target === type ? 'relation.circular' : 'relation.basic', relation: a.relation, left, right });
    });
  }
  const folder = ct.uid === UPLOAD_FILE_UID ? fileFolderLink(row) : undefined;
  if (folder) out.push(folder);
  out.push(localizationsLink(ct.uid, row.id, row.documentId));
  return out;
}
