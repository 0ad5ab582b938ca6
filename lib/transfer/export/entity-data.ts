import { UPLOAD_FILE_UID, type Attributes, type ContentType, type Registry } from '../../schema';

type Data = Record<string, unknown>;

/** A relation or media value of a row or component, for the links stage. */
export interface HeldLink {
  /** The row's type or the component's uid, and its id. */
  readonly type: string;
  readonly ref: number;
  readonly field: string;
  readonly values: readonly unknown[];
}

/** The data of a component as Strapi exports it: id, scalars and nested components (no media, no relations). */
function componentData(registry: Registry, uid: string, value: Data, links: HeldLink[], zone: boolean): Data {
  const component = registry.component(uid);
  const out: Data = { id: value.id };
  fill(registry, component.attributes, component.attributeNames, value, out, links, { type: uid, ref: value.id as number });
  if (zone) out.__component = uid;
  return out;
}

function fill(registry: Registry, attributes: Attributes, names: readonly string[], row: Data, out: Data, links: HeldLink[], owner: { type: string; ref: number }, late?: Data): void {
  for (const name of names) {
    const a = attributes[name]!;
    const value = row[name];
    if (a.kind === 'scalar') out[name] = value ?? null;
    else if (a.kind === 'media' || (a.kind === 'relation' && a.owner)) {
      const values = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
      if (values.length) links.push({ ...owner, field: name, values });
    } else if (a.kind === 'component') {
      const target = late ?? out;
      if (a.repeatable) target[name] = ((value as Data[] | undefined) ?? []).map((c) => componentData(registry, a.component, c, links, false));
      else target[name] = value ? componentData(registry, a.component, value as Data, links, false) : null;
    } else if (a.kind === 'dynamiczone') {
      (late ?? out)[name] = ((value as Data[] | undefined) ?? []).map((c) => componentData(registry, c.__component as string, c, links, true));
    }
  }
}

/**
 * A stored row as the `data` of a Strapi entity (strapi/strapi packages/core/data-transfer, local-source
 * entities): documentId, the scalar attributes (private ones too), createdAt, updatedAt, publishedAt, locale,
 * then components and dynamic zones with their ids. Relations and media are not in it: they are returned in
 * `links`, for the links stage.
 */
export function entityData(registry: Registry, ct: ContentType, row: Data): { data: Data; links: HeldLink[] } {
  const links: HeldLink[] = [];
  const data: Data = { documentId: row.documentId };
  const late: Data = {};
  fill(registry, ct.attributes, ct.attributeNames, row, data, links, { type: ct.uid, ref: row.id as number }, late);
  // Strapi's `folderPath` (private, required): the one an import kept, else the root (no folders here).
  if (ct.uid === UPLOAD_FILE_UID) data.folderPath = typeof row.folderPath === 'string' ? row.folderPath : '/';
  Object.assign(data, { createdAt: row.createdAt, updatedAt: row.updatedAt, publishedAt: row.publishedAt ?? null, locale: ct.localized ? row.locale : null }, late);
  return { data, links };
}
