import type { StringRule } from './validate-body';

/**
 * The bounds of the auth routes' inputs, checked before anything is looked up, hashed or stored. Strapi's yup
 * schemas bound only the new password (72 bytes, what bcrypt reads); its user columns are `varchar(255)`
 * (`username`, `email`, the tokens), so no stored value is longer, and nothing longer is ever looked for.
 */
export const AUTH_LIMITS = {
  /** `username` and `email` of a user, and the `identifier` of a login (Strapi's `string` column: 255). */
  name: 255,
  /** A reset or confirmation code (ours are 128 and 40 hex characters; Strapi's column: 255). */
  code: 255,
  /** A password given to be checked (login, current password): bcrypt reads 72 bytes; longer ones are refused. */
  givenPassword: 1024,
  /** A new password, in UTF-8 bytes (Strapi's `Password must be less than 73 bytes`). */
  newPasswordBytes: 72,
} as const;

/** A user's e-mail address in a body (register, forgot-password, send-email-confirmation). */
export const EMAIL_RULE: StringRule = { required: true, email: true, max: AUTH_LIMITS.name };
/** A username in a register body. */
export const USERNAME_RULE: StringRule = { required: true, max: AUTH_LIMITS.name };
/** The new password of register, reset and change (Strapi's `createPasswordSchema`: bcrypt reads 72 bytes). */
export const NEW_PASSWORD_RULE: StringRule = { required: true, maxBytes: AUTH_LIMITS.newPasswordBytes };

/** Whether a string given to be matched (identifier, password, code) is too long to match anything stored. */
export const tooLong = (value: string | undefined, max: number): boolean => value !== undefined && value.length > max;
