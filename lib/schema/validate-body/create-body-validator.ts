import { fieldValidationError, ValidationError } from '../../errors';
import type { ContentType, Registry } from '../types';
import { variantKey } from './annotation';
import { assertSafeStructure, entityFieldError } from './body-errors';
import { castModel, type FailedCasts } from './cast-values';
import { checkKeys } from './check-keys';
import { compileTypeValidators } from './compile-validators';
import { convertModel } from './convert-values';
import { sortFieldErrors } from './error-order';
import { mapAjvErrors } from './map-ajv-errors';
import { notTypeMessage } from './messages';
import { isPlainObject } from './model-lookup';
import { zoneStoreError } from './zone-store-error';

/** How a body is validated: create or update, and whether only the draft is written (`?status=draft`). */
export interface ValidateMode {
  action: 'create' | 'update';
  draft: boolean;
  /** The locale written (only echoed in whole-entry errors, as Strapi does); default: the default locale. */
  locale?: string | null;
}

/** A content type's request-body validator (see createBodyValidator). */
export interface BodyValidator {
  /**
   * Validates `data` (the value of the body's "data" key) and returns a NEW cleaned object in stored form:
   * create applies defaults, update keeps only the keys sent, drafts do not enforce `required` (nor
   * minimums and formats). `publishedAt` (and `locale`/`localizations` on localized types) are dropped;
   * relations and media are passed through after a shape check. Throws Strapi's ValidationErrors.
   */
  validate(data: unknown, mode: ValidateMode): Record<string, unknown>;
}

function notAnObject(data: unknown): ValidationError {
  if (!Array.isArray(data)) return new ValidationError('Missing "data" payload in the request body', {});
  const message = notTypeMessage('this', 'object', null, data);
  return fieldValidationError([{ path: [], message, name: 'ValidationError', value: null }]);
}

/**
 * Builds the body validator of a content type. Its ajv validators (create/update x published/draft) are
 * compiled once per (registry, type) and share the compiled component schemas.
 *
 * @example
 * const validator = createBodyValidator(registry, registry.contentType('api::article.article'));
 * const data = validator.validate(readDataPayload(req.body), { action: 'create', draft: false });
 */
export function createBodyValidator(registry: Registry, owner: ContentType): BodyValidator {
  const compiled = compileTypeValidators(registry, owner);
  return {
    validate(data, mode) {
      if (!isPlainObject(data)) throw notAnObject(data);
      assertSafeStructure(data);
      checkKeys(registry, owner, data);
      const failed: FailedCasts = new Map();
      const cast = castModel(registry, owner.attributes, data, '', failed);
      const validateFn = compiled.get(variantKey({ action: mode.action, draft: mode.draft }))!;
      const ok = validateFn(cast);
      const errors = ok ? [] : sortFieldErrors(registry, owner, cast, mapAjvErrors(validateFn.errors ?? [], failed));
      const zoneMessage = zoneStoreError(registry, owner, cast);
      if (zoneMessage) {
        const echoed: Record<string, unknown> = { ...cast };
        if (owner.localized) echoed.locale = mode.locale !== undefined ? mode.locale : registry.i18n.defaultLocale;
        if (owner.draftAndPublish) echoed.publishedAt = null;
        errors.push(entityFieldError(zoneMessage, echoed));
      }
      if (errors.length > 0) throw fieldValidationError(errors);
      return convertModel(registry, owner.attributes, cast);
    },
  };
}
