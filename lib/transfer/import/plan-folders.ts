import { UPLOAD_FILE_UID } from '../../schema';
import { FOLDER_UID } from '../media-folders';
import { addProblem, ownerKey, type ImportPlan } from './import-plan';
import type { StrapiLink } from './plan-link';

/** A folder entity of the export (kept aside as it came): its id, for the files' `folder` links. */
export function planFolder(plan: ImportPlan, id: number): void {
  if (plan.folders.has(id)) return addProblem(plan, `entity ${FOLDER_UID} id ${id}: the id appears twice`);
  plan.folders.add(id);
}

/**
 * A file's `folder` link (`plugin::upload.file` field `folder` -> `plugin::upload.folder` field `files`): recorded
 * for the file row (checked once the whole export is read: {@link checkFileFolders}).
 */
export function planFileFolder(plan: ImportPlan, link: StrapiLink): void {
  const { left, right } = link;
  const where = `link ${UPLOAD_FILE_UID} id ${String(left.ref).slice(0, 60)} field folder`;
  if (right.type !== FOLDER_UID) return addProblem(plan, `${where}: wrong target ${right.type.slice(0, 60)}, a file's folder is a ${FOLDER_UID}`);
  if (!Number.isSafeInteger(left.ref) || !Number.isSafeInteger(right.ref)) return addProblem(plan, `${where}: refs must be integer ids`);
  const pos = right.pos ?? null;
  if (pos !== null && !Number.isFinite(pos)) return addProblem(plan, `${where}: pos must be a number`);
  const file = left.ref as number;
  if (plan.fileFolders.has(file)) return addProblem(plan, `${where}: a second folder (a file is in one folder)`);
  plan.fileFolders.set(file, { id: right.ref as number, pos });
}

/** Every file's `folder` link joins a file and a folder that are in the export. */
export function checkFileFolders(plan: ImportPlan): void {
  const files = plan.rows.get(UPLOAD_FILE_UID);
  for (const [file, folder] of plan.fileFolders) {
    const key = ownerKey(UPLOAD_FILE_UID, file);
    if (plan.failed.has(key) || plan.left.has(key)) continue;
    if (!files?.has(file)) addProblem(plan, `link ${UPLOAD_FILE_UID} id ${file} field folder: there is no such file in the export`);
    else if (!plan.folders.has(folder.id)) addProblem(plan, `${UPLOAD_FILE_UID} id ${file}, field folder: links to ${FOLDER_UID} id ${folder.id}, which is not in the export`);
  }
}
