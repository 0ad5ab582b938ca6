import type { Engine } from '../engine';
import { ValidationError } from '../errors';
import { mimeAllowed } from '../media/media-references';
import type { MediaReference } from './prepare-components';

/**
 * Checks the file references of a write: every file exists (Strapi's message otherwise) and its `mime` fits
 * the `allowedTypes` of the attribute it is written to (`images`, `videos`, `audios`, `files`).
 */
export async function checkMediaReferences(engine: Engine, references: readonly MediaReference[]): Promise<void> {
  if (references.length === 0) return;
  const ids = [...new Set(references.map((r) => r.id))];
  const found = await engine.find('files', { id: { $in: ids } }, { projection: { id: 1, mime: 1 } });
  const mimes = new Map(found.map((r) => [r.id as number, typeof r.mime === 'string' ? r.mime : '']));
  const missing = ids.filter((id) => !mimes.has(id)).length;
  if (missing > 0) {
    const message = `${missing} relation(s) of type plugin::upload.file associated with this entity do not exist`;
    throw new ValidationError(message, { errors: [{ path: [], message, name: 'ValidationError', value: null }] });
  }
  const errors = references
    .filter((r) => !mimeAllowed(mimes.get(r.id)!, r.allowedTypes))
    .map((r) => ({
      path: [r.attribute],
      message: `File ${r.id} (${mimes.get(r.id) || 'unknown type'}) is not allowed in ${r.attribute}: allowed types are ${(r.allowedTypes ?? []).join(', ')}`,
      name: 'ValidationError',
      value: r.id,
    }));
  if (errors.length > 0) {
    throw new ValidationError(errors.length === 1 ? errors[0]!.message : `${errors.length} errors occurred`, { errors });
  }
}
