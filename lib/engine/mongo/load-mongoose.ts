import { ConfigurationError } from '../../errors';

/** The mongoose module, typed. Loaded by `mongoEngine()` only, so the library works without mongoose installed. */
export type Mongoose = typeof import('mongoose');

/** The oldest mongoose major the engine is written for (package.json `peerDependencies`). */
const MIN_MAJOR = 8;

/**
 * Loads mongoose when `mongoEngine()` is called, so that an app without the optional peer dependency fails at
 * once with the command that fixes it (a `ConfigurationError` `CR_MISSING_DEPENDENCY`), instead of starting
 * and answering 503 while start-up is retried in vain. A mongoose older than 8 is refused the same way. An
 * installed mongoose that fails to load (one of its own dependencies missing) throws its own error.
 *
 * @example
 * const mongoose = requireMongoose(); // throws 'CR_MISSING_DEPENDENCY: mongoEngine() needs mongoose ... npm install mongoose'
 */
export function requireMongoose(): Mongoose {
  let mongoose: Mongoose;
  try {
    mongoose = require('mongoose') as Mongoose;
  } catch (error) {
    if (!isMissing(error)) throw error;
    throw new ConfigurationError(
      'CR_MISSING_DEPENDENCY',
      'mongoEngine() needs mongoose, an optional peer dependency of content-router that is not installed. ' +
        'Install it in your app: npm install mongoose',
    );
  }
  const major = Number(/^(\d+)\./.exec(String(mongoose.version))?.[1]);
  if (major < MIN_MAJOR) {
    throw new ConfigurationError(
      'CR_MISSING_DEPENDENCY',
      `mongoEngine() needs mongoose ${MIN_MAJOR} or later; ${mongoose.version} is installed: npm install mongoose@latest`,
    );
  }
  return mongoose;
}

/** Node's (and Jest's) error for a module that cannot be found: `mongoose` itself, not one of its dependencies. */
function isMissing(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'MODULE_NOT_FOUND' && typeof message === 'string' && /Cannot find module 'mongoose'/.test(message);
}
