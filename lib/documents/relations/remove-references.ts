import type { Engine } from '../../engine';
import type { Attributes, Registry } from '../../schema';

type Row = Record<string, unknown>;

const MAX_DEPTH = 12;

/**
 * Dot paths of the relation attributes inside components (and dynamic zones) of `attributes` that target `uid`.
 *
 * @example componentRelationPaths(registry, post.attributes, 'api::tag.tag') // ['links.tag']
 */
export function componentRelationPaths(registry: Registry, attributes: Attributes, uid: string, prefix = '', depth = 0): string[] {
  if (depth > MAX_DEPTH) return [];
  const paths: string[] = [];
  for (const a of Object.values(attributes)) {
    const here = prefix + a.name;
    if (a.kind === 'relation' && prefix !== '' && a.target === uid) paths.push(here);
    const uids = a.kind === 'component' ? [a.component] : a.kind === 'dynamiczone' ? a.components : [];
    for (const c of uids) paths.push(...componentRelationPaths(registry, registry.component(c).attributes, uid, `${here}.`, depth + 1));
  }
  return [...new Set(paths)];
}

/** Removes `documentId` (a `target` document) from the relations inside the components of `row`. Mutates it. */
function removeFromComponents(registry: Registry, attributes: Attributes, row: Row, target: string, documentId: string, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  let changed = false;
  for (const a of Object.values(attributes)) {
    const value = row[a.name];
    if (value === null || value === undefined) continue;
    if (a.kind === 'relation' && depth > 0 && a.target === target) {
      if (Array.isArray(value) && value.includes(documentId)) {
        row[a.name] = value.filter((v) => v !== documentId);
        changed = true;
      } else if (value === documentId) {
        row[a.name] = null;
        changed = true;
      }
    } else if (a.kind === 'component' || a.kind === 'dynamiczone') {
      for (const item of (Array.isArray(value) ? value : [value]) as Row[]) {
        if (!item || typeof item !== 'object') continue;
        const uid = a.kind === 'component' ? a.component : String(item.__component);
        if (a.kind === 'dynamiczone' && !a.components.includes(uid)) continue;
        if (removeFromComponents(registry, registry.component(uid).attributes, item, target, documentId, depth + 1)) changed = true;
      }
    }
  }
  return changed;
}

/**
 * Removes a deleted document from every relation that points to it: owning fields of every type (to-one set to
 * null, to-many pulled) and relations inside their components. Run it inside the delete's transaction.
 */
export async function removeDocumentReferences(engine: Engine, registry: Registry, uid: string, documentId: string): Promise<void> {
  for (const { sourceUid, attribute } of registry.incomingRelations(uid)) {
    const source = registry.contentType(sourceUid).collectionName;
    if (attribute.toMany) await engine.updateMany(source, { [attribute.name]: documentId }, { $pull: { [attribute.name]: documentId } });
    else await engine.updateMany(source, { [attribute.name]: documentId }, { $set: { [attribute.name]: null } });
  }
  for (const ct of registry.contentTypes.values()) {
    const paths = componentRelationPaths(registry, ct.attributes, uid);
    if (paths.length === 0) continue;
    const rows = await engine.find(ct.collectionName, { $or: paths.map((p) => ({ [p]: documentId })) });
    for (const row of rows) {
      const { _id, ...rest } = row;
      void _id;
      if (removeFromComponents(registry, ct.attributes, rest, uid, documentId, 0)) await engine.replaceOne(ct.collectionName, { id: rest.id }, rest);
    }
  }
}
