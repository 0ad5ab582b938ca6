/** The mongoose module, typed. Loaded on first use only, so the library works without mongoose installed. */
export type Mongoose = typeof import('mongoose');

let loaded: Promise<Mongoose> | undefined;

/**
 * Imports mongoose lazily; rejects with an actionable message when it is not installed.
 *
 * @example
 * const mongoose = await loadMongoose();
 */
export function loadMongoose(): Promise<Mongoose> {
  loaded ??= import('mongoose').catch((error: unknown) => {
    loaded = undefined;
    throw new Error(`mongoEngine needs the optional peer dependency "mongoose" (npm install mongoose): ${String(error)}`);
  });
  return loaded;
}
