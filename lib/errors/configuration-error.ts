/**
 * Thrown at startup by `createContentRouter` when the options or the content-type definitions are wrong (and,
 * through `router.ready`, by an engine whose deployment cannot keep its guarantees: `CR_NO_TRANSACTIONS`; by
 * `mongoEngine()` when mongoose is not installed: `CR_MISSING_DEPENDENCY`; by `loadStrapiProject` when a Strapi
 * project's files cannot be read: `CR_INVALID_PROJECT`; by `createAdmin` when the admin is not built: `CR_ADMIN_NOT_BUILT`).
 * Every code is listed in `docs/errors.md`.
 */
export type ConfigurationErrorCode =
  | 'CR_INVALID_OPTIONS'
  | 'CR_INVALID_SCHEMA'
  | 'CR_UNKNOWN_ATTRIBUTE_TYPE'
  | 'CR_UNKNOWN_TARGET'
  | 'CR_UNKNOWN_COMPONENT'
  | 'CR_RELATION_MISMATCH'
  | 'CR_UNKNOWN_CUSTOM_FIELD'
  | 'CR_DUPLICATE_API_ID'
  | 'CR_RESERVED_ATTRIBUTE'
  | 'CR_INVALID_LOCALES'
  | 'CR_INVALID_ROUTES'
  | 'CR_INVALID_HASH_INPUT'
  | 'CR_NO_TRANSACTIONS'
  | 'CR_DATA_FILE_LOCKED'
  | 'CR_MISSING_DEPENDENCY'
  | 'CR_SHORT_JWT_SECRET'
  | 'CR_INVALID_PROJECT'
  | 'CR_ADMIN_NOT_BUILT';

export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
  readonly code: ConfigurationErrorCode;

  constructor(code: ConfigurationErrorCode, message: string) {
    super(`${code}: ${message}`);
    this.code = code;
  }
}
