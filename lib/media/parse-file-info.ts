import { type FieldError, ValidationError, fieldValidationError } from '../errors';
import type { FileInfo } from './types';

const KEYS = ['name', 'alternativeText', 'caption'] as const;
const MAX_TEXT = 10_000;

function error(path: string[], message: string, value: unknown): FieldError {
  return { path, message, name: 'ValidationError', value };
}

function checkInfo(value: unknown, path: string[], errors: FieldError[]): FileInfo {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    errors.push(error(path, `${path.join('.')} must be a \`object\` type`, value));
    return {};
  }
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((k) => !(KEYS as readonly string[]).includes(k));
  if (unknown.length > 0) errors.push(error(path, `${path.join('.')} field has unspecified keys: ${unknown.join(', ')}`, value));
  const info: FileInfo = {};
  for (const key of KEYS) {
    const v = record[key];
    if (v === undefined) continue;
    if (v !== null && typeof v !== 'string') errors.push(error([...path, key], `${[...path, key].join('.')} must be a \`string\` type`, v));
    else if (typeof v === 'string' && v.length > MAX_TEXT) errors.push(error([...path, key], `${[...path, key].join('.')} must be at most ${MAX_TEXT} characters`, v));
    else info[key] = v;
  }
  return info;
}

/**
 * The `fileInfo` of an upload: a JSON string (form field) or an already parsed value; an object for one
 * file, an array (one entry per file, in order) for several. Only `name`, `alternativeText` and `caption`
 * are accepted, as Strapi's content API validates them.
 *
 * @example parseFileInfo('{"alternativeText":"A logo"}', 1) // [{ alternativeText: 'A logo' }]
 */
export function parseFileInfo(raw: unknown, fileCount: number): FileInfo[] {
  let value = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return [];
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      throw new ValidationError('fileInfo must be valid JSON', { errors: [error(['fileInfo'], 'fileInfo must be valid JSON', raw)] });
    }
  }
  const errors: FieldError[] = [];
  let infos: FileInfo[];
  if (Array.isArray(value)) infos = value.map((v, i) => checkInfo(v, ['fileInfo', String(i)], errors));
  else if (fileCount > 1 && value !== undefined && value !== null) {
    errors.push(error(['fileInfo'], 'fileInfo must be a `array` type when several files are uploaded', value));
    infos = [];
  } else infos = [checkInfo(value, ['fileInfo'], errors)];
  if (errors.length > 0) throw fieldValidationError(errors);
  return infos;
}
