import { UPLOAD_FILE_UID } from '../schema';

/**
 * Strapi's media-library folder type (strapi/strapi packages/core/upload server/content-types/folder: `name`,
 * `pathId`, `path` like `/1/3`, `parent` a manyToOne to a folder with `inversedBy: 'children'`, `files` the
 * mappedBy side of the file's `folder`). The media library here has no folders: an import keeps the folder
 * entities and their `parent` links aside as they came (kept-lines.ts), and each file row keeps its `folderPath`
 * and its `folder` link ({@link FILE_FOLDER_FIELD}), so that an export writes them all back as Strapi wrote them.
 */
export const FOLDER_UID = 'plugin::upload.folder';

/**
 * The file row's internal field holding its `folder` link: the folder's id in the kept lines and the file's
 * position among the folder's files (Strapi's inverse order column), as the export gave them. Never served.
 */
export const FILE_FOLDER_FIELD = '_folder';

export interface FileFolder {
  readonly id: number;
  readonly pos: number | null;
}

/** The longest `folderPath` taken (Strapi builds it from the folder ids: `/1/3/12`); a longer one is refused. */
const MAX_FOLDER_PATH = 1000;
/** `/` (the root) or `/<pathId>/<pathId>...`: Strapi's folder path, nothing else. */
const FOLDER_PATH = /^\/(?:\d{1,16}(?:\/\d{1,16})*)?$/;

/** Why `value` is not a file's `folderPath` (`/`, `/1`, `/1/3`), or undefined when it is one. */
export function folderPathProblem(value: unknown): string | undefined {
  if (typeof value === 'string' && value.length <= MAX_FOLDER_PATH && FOLDER_PATH.test(value)) return undefined;
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 60)) : String(JSON.stringify(value) ?? value).slice(0, 60);
  return `expected a folder path like "/" or "/1/3" (at most ${MAX_FOLDER_PATH} characters), got ${shown}`;
}

/** The stored `folder` link of a file row, or undefined when it has none (or holds no valid one). */
export function storedFileFolder(row: Record<string, unknown>): FileFolder | undefined {
  const value = row[FILE_FOLDER_FIELD] as Partial<FileFolder> | null | undefined;
  if (!value || !Number.isSafeInteger(value.id)) return undefined;
  return { id: value.id!, pos: Number.isFinite(value.pos) ? value.pos! : null };
}

/**
 * The `folder` link line of a file row, as `strapi export` writes it (a join table with the inverse order column
 * `file_ord`): `{ kind: 'relation.basic', relation: 'manyToOne', left: file, right: folder (field files, pos) }`.
 */
export function fileFolderLink(row: Record<string, unknown>): Record<string, unknown> | undefined {
  const folder = storedFileFolder(row);
  if (!folder) return undefined;
  const right = { type: FOLDER_UID, field: 'files', ref: folder.id, ...(folder.pos === null ? {} : { pos: folder.pos }) };
  return { kind: 'relation.basic', relation: 'manyToOne', left: { type: UPLOAD_FILE_UID, field: 'folder', ref: row.id }, right };
}
