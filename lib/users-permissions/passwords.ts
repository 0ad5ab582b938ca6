import bcrypt from 'bcryptjs';

/** bcrypt's cost, as Strapi hashes users' passwords (`bcrypt.hash(password, 10)`). */
const ROUNDS = 10;

/**
 * A hash of a password nobody has, compared against when no user matches a login: an unknown identifier then costs
 * the same bcrypt work as a wrong password, so the time taken does not tell whether an account exists.
 */
const DECOY = bcrypt.hashSync('decoy-password-never-valid', ROUNDS);

/**
 * The bcrypt hash stored for a password: `$2b$10$...` (bcryptjs). Passwords hashed by Strapi (`$2a$`, bcryptjs 2)
 * or by other bcrypt implementations (`$2b$`, `$2y$`) verify alike.
 *
 * @example
 * const stored = await hashPassword('Alice-pass-1');
 * await verifyPassword('Alice-pass-1', stored); // true
 */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, ROUNDS);
}

/** Whether `password` matches the stored bcrypt `hash`; false for anything that is not a bcrypt hash. */
export async function verifyPassword(password: string, hash: unknown): Promise<boolean> {
  if (typeof hash !== 'string' || !/^\$2[abxy]\$\d{2}\$/.test(hash)) {
    await bcrypt.compare(password, DECOY);
    return false;
  }
  // `$2y$` (PHP's crypt) is the same algorithm as `$2b$`; bcryptjs reads `$2a$` and `$2b$`.
  return bcrypt.compare(password, hash.replace(/^\$2y\$/, '$2b$'));
}

/** Spends a bcrypt comparison for nothing: the failed login of an unknown user costs what a wrong password does. */
export async function spendPasswordCheck(password: string): Promise<void> {
  await bcrypt.compare(password, DECOY);
}
