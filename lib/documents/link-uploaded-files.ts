import type { Engine, Row } from '../engine/types';
import { ForbiddenError, ValidationError } from '../errors';
import { mimeAllowed } from '../media/media-references';
import type { Registry } from '../schema';

/** The form fields of `POST /upload` that link the uploaded files to an entry (Strapi's `ref`, `refId`, `field`). */
export interface UploadLinkFields {
  ref?: string;
  refId?: string;
  field?: string;
}

/** What a validated link does once the files are stored, inside the transaction that inserts their rows. */
export interface UploadLink {
  apply(files: readonly { id: number; mime: string }[]): Promise<void>;
}

const NUMERIC_ID = /^[1-9][0-9]{0,15}$/;

function invalid(path: string, message: string, value: unknown): ValidationError {
  return new ValidationError(message, { errors: [{ path: [path], message, name: 'ValidationError', value }] });
}

/**
 * Validates the `ref`, `refId` and `field` of an upload before any file is stored, and returns how to link the
 * files, or null when the request names none of them. Strapi 5 links the new files to the entry ROW whose numeric
 * id is `refId` (one version: a draft or a published row, one locale), in the media attribute `field` of the content
 * type `ref`: so do we. Stricter than Strapi, on purpose: the three go together, `ref` must be a content type
 * (Strapi also takes a component uid: a component row has no route here), the caller needs the content type's
 * `update` action (Strapi asks only for the upload action: linking is a write to the entry), the attribute's
 * `allowedTypes` and single/multiple apply, and a `refId` that is not a numeric id (a documentId: Strapi answers
 * 500) or that no row of `ref` has is a 400.
 *
 * @example
 * const link = await prepareUploadLink({ engine, registry, can }, { ref: 'api::article.article', refId: '12', field: 'gallery' });
 */
export async function prepareUploadLink(
  deps: { engine: Engine; registry: Registry; can: (action: string) => boolean },
  fields: UploadLinkFields,
): Promise<UploadLink | null> {
  const { ref, refId, field } = fields;
  if (ref === undefined && refId === undefined && field === undefined) return null;
  const missing = (['ref', 'refId', 'field'] as const).filter((k) => fields[k] === undefined || fields[k] === '');
  if (missing.length > 0) throw invalid(missing[0]!, `${missing.join(', ')} must be given with ${['ref', 'refId', 'field'].filter((k) => !missing.includes(k as never)).join(', ')} to link the uploaded files to an entry`, null);
  const ct = deps.registry.contentTypes.get(ref!);
  if (!ct) throw invalid('ref', `ref must be the uid of a content type, e.g. api::article.article; ${JSON.stringify(ref)} is not one`, ref);
  if (!deps.can(`${ct.uid}.update`)) throw new ForbiddenError();
  const attribute = ct.attributes[field!];
  if (!attribute || attribute.kind !== 'media' || attribute.private) throw invalid('field', `field must be a media attribute of ${ct.uid}; ${JSON.stringify(field)} is not one`, field);
  if (!NUMERIC_ID.test(refId!) || !Number.isSafeInteger(Number(refId))) {
    throw invalid('refId', `refId must be the numeric id of an entry of ${ct.uid} (a documentId is not accepted: use the entry's id)`, refId);
  }
  const id = Number(refId);
  const [row] = await deps.engine.find(ct.collectionName, { id }, { limit: 1 });
  if (!row) throw invalid('refId', `refId: ${ct.uid} has no entry with id ${id}`, refId);
  return {
    async apply(files) {
      const refused = files.find((f) => !mimeAllowed(f.mime, attribute.allowedTypes));
      if (refused) throw invalid('field', `${field} of ${ct.uid} does not accept ${refused.mime} files (allowed: ${attribute.allowedTypes!.join(', ')})`, refused.mime);
      if (!attribute.multiple && files.length > 1) throw invalid('field', `${field} of ${ct.uid} holds one file; ${files.length} were uploaded`, files.length);
      const [current] = await deps.engine.find(ct.collectionName, { id }, { limit: 1 });
      if (!current) throw invalid('refId', `refId: ${ct.uid} has no entry with id ${id}`, refId);
      const ids = files.map((f) => f.id);
      const value = attribute.multiple ? [...((current[field!] as number[] | null) ?? []), ...ids] : ids[0]!;
      const next: Row = { ...current, [field!]: value };
      delete next._id;
      await deps.engine.replaceOne(ct.collectionName, { id }, next);
    },
  };
}
