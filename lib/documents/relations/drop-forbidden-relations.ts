import { UPLOAD_FILE_UID, type Attributes, type Registry } from '../../schema';

type Row = Record<string, unknown>;

const isObject = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Strapi's input sanitizer for relations (`removeRestrictedRelations` of @strapi/utils): a body's relations to a
 * type the caller cannot `find` are dropped before the write, at the root and inside components and dynamic
 * zones, and so are media when it cannot find files. The write then neither links them nor looks their ids up, so
 * its answer (201 or 400) cannot tell whether a document of a type the caller may not read exists. Returns `data`
 * itself when nothing is dropped, else a new object (the argument is not mutated).
 *
 * @example
 * dropForbiddenRelations(registry, article.attributes, { title: 'x', author: { connect: ['a1'] } }, (uid) => uid !== 'api::author.author');
 * // { title: 'x' }
 */
export function dropForbiddenRelations(registry: Registry, attributes: Attributes, data: Row, canFind: (uid: string) => boolean): Row {
  let out: Row | undefined;
  const set = (key: string, value: unknown, drop = false): void => {
    out ??= { ...data };
    if (drop) delete out[key];
    else out[key] = value;
  };
  for (const [key, value] of Object.entries(data)) {
    const attribute = attributes[key];
    if (!attribute) continue;
    if (attribute.kind === 'relation' && !canFind(attribute.target)) set(key, undefined, true);
    else if (attribute.kind === 'media' && !canFind(UPLOAD_FILE_UID)) set(key, undefined, true);
    else if (attribute.kind === 'component' || attribute.kind === 'dynamiczone') {
      const inItem = (item: unknown): unknown => {
        if (!isObject(item)) return item;
        const uid = attribute.kind === 'component' ? attribute.component : item.__component;
        const component = typeof uid === 'string' ? registry.components.get(uid) : undefined;
        return component ? dropForbiddenRelations(registry, component.attributes, item, canFind) : item;
      };
      const next = Array.isArray(value) ? value.map(inItem) : inItem(value);
      const changed = Array.isArray(value) ? (next as unknown[]).some((v, i) => v !== value[i]) : next !== value;
      if (changed) set(key, next);
    }
  }
  return out ?? data;
}
