import type { FileRow, FileSelection, MediaFile, PublicFile } from './types';

const KEYS = [
  'id', 'documentId', 'name', 'alternativeText', 'caption', 'focalPoint', 'width', 'height', 'formats', 'hash', 'ext',
  'mime', 'size', 'url', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt', 'publishedAt',
] as const;

/** The keys a query's `fields` always leaves, as for content types. */
const ALWAYS: readonly string[] = ['id', 'documentId'];

/** A stored `files` row without its internal fields, keys in Strapi's order; missing fields become `null`. */
export function toPublicFile(row: Record<string, unknown>): PublicFile {
  return toFileSelection(row, null) as PublicFile;
}

/**
 * A stored `files` row as a query's `fields` selects it: `id`, `documentId` and those fields in Strapi's key order
 * (every field when `fields` is null, as {@link toPublicFile}); missing fields become `null`.
 *
 * @example
 * toFileSelection(row, ['name']) // { id: 1, documentId: '...', name: 'tiny.png' }
 */
export function toFileSelection(row: Record<string, unknown>, fields: readonly string[] | null): FileSelection {
  const out: Record<string, unknown> = {};
  for (const key of KEYS) {
    if (fields === null || ALWAYS.includes(key) || fields.includes(key)) out[key] = row[key] ?? null;
  }
  return out as unknown as FileSelection;
}

/** The shape of the upload routes: the file plus `isUrlSigned: false` (the local provider never signs). */
export function toMediaFile(file: PublicFile): MediaFile;
export function toMediaFile(file: FileSelection): FileSelection & { isUrlSigned: false };
export function toMediaFile(file: FileSelection): FileSelection & { isUrlSigned: false } {
  return { ...file, isUrlSigned: false };
}

export type { FileRow };
