import type { FileRow, MediaFile, PublicFile } from './types';

const KEYS = [
  'id', 'documentId', 'name', 'alternativeText', 'caption', 'focalPoint', 'width', 'height', 'formats', 'hash', 'ext',
  'mime', 'size', 'url', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt', 'publishedAt',
] as const;

/** A stored `files` row without its internal fields, keys in Strapi's order; missing fields become `null`. */
export function toPublicFile(row: Record<string, unknown>): PublicFile {
  const out: Record<string, unknown> = {};
  for (const key of KEYS) out[key] = row[key] ?? null;
  return out as unknown as PublicFile;
}

/** The shape of the upload routes: the public file plus `isUrlSigned: false` (the local provider never signs). */
export function toMediaFile(file: PublicFile): MediaFile {
  return { ...file, isUrlSigned: false };
}

export type { FileRow };
