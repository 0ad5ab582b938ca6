/** Something of a Strapi project that `loadStrapiProject` does not take over: its file, what it is, what to do. */
export interface ProjectNote {
  /** The file, relative to the project folder (`src/api/article/controllers/article.js`). */
  readonly file: string;
  /** What is there and is not taken over. */
  readonly what: string;
  /** What to do instead. */
  readonly instead: string;
}

/**
 * A plain object (`{ ... }`), also when a config module made it in another realm (jiti runs modules in Node's own
 * context, not in a test runner's): its tag is `Object`, unlike arrays, dates, maps or class instances with a tag.
 */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.prototype.toString.call(value) === '[object Object]';
