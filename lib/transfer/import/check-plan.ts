import { UPLOAD_FILE_UID, type Registry } from '../../schema';
import { addProblem, ownerKey, type ImportPlan } from './import-plan';
import { checkGrants } from './plan-grants';
import { checkFileFolders } from './plan-folders';

/** `type\0ref` back to its parts. */
function splitKey(key: string): [string, number] {
  const at = key.lastIndexOf('\u0000');
  return [key.slice(0, at), Number(key.slice(at + 1))];
}

function exists(plan: ImportPlan, type: string, ref: number): boolean {
  return plan.rows.get(type)?.has(ref) === true || plan.components.get(type)?.has(ref) === true;
}

/** The links of the versions left out (and those pointing at them) go with them. */
function dropLeftOut(plan: ImportPlan): void {
  if (plan.left.size === 0) return;
  for (const [key, fields] of plan.links) {
    if (plan.left.has(key)) {
      plan.links.delete(key);
      continue;
    }
    for (const [field, links] of fields) fields.set(field, links.filter((l) => !plan.left.has(ownerKey(l.type, l.ref))));
  }
}

/**
 * The checks of a scanned export that need all of it: every link joins an entity (or component) and a target
 * that are there, a to-one field has one link at most, every file has its bytes, a single type has one document.
 */
export function checkPlan(plan: ImportPlan, registry: Registry): void {
  dropLeftOut(plan);
  for (const [key, fields] of plan.links) {
    const [type, ref] = splitKey(key);
    if (plan.failed.has(key)) continue;
    if (!exists(plan, type, ref)) {
      addProblem(plan, `links of ${type} id ${ref} (${[...fields.keys()].join(', ')}): there is no such ${registry.components.has(type) ? 'component' : 'entity'} in the export`);
      continue;
    }
    const attributes = registry.contentTypes.get(type)?.attributes ?? registry.components.get(type)!.attributes;
    for (const [field, links] of fields) {
      const a = attributes[field]!;
      const toMany = a.kind === 'media' ? a.multiple : a.kind === 'relation' && a.toMany;
      if (!toMany && links.length > 1) addProblem(plan, `${type} id ${ref}, field ${field}: ${links.length} links to a to-one field`);
      const missing = links.find((l) => !plan.rows.get(l.type)?.has(l.ref) && !plan.failed.has(ownerKey(l.type, l.ref)));
      if (missing) addProblem(plan, `${type} id ${ref}, field ${field}: links to ${missing.type} id ${missing.ref}, which is not in the export`);
    }
  }
  for (const [name, { fileId, format }] of plan.objects) {
    if (!plan.assets.has(name)) addProblem(plan, `${UPLOAD_FILE_UID} id ${fileId}${format ? `, format ${format}` : ''}: its file ${name} is not in assets/uploads (an export made with --exclude files?)`);
  }
  for (const [uid, rows] of plan.rows) {
    const ct = registry.contentType(uid);
    const documents = new Set([...rows.values()].map((r) => r.documentId));
    if (ct.kind === 'singleType' && documents.size > 1) addProblem(plan, `${uid} is a single type: the export holds ${documents.size} documents of it`);
  }
  checkGrants(plan);
  checkFileFolders(plan);
}
