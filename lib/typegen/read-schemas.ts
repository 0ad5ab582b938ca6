import fs from 'node:fs';
import path from 'node:path';
import type { ComponentSchema, ContentTypeSchema } from '../schema/schema-json';

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
}

function jsonFilesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...jsonFilesUnder(full));
    else if (entry.isFile() && entry.name.endsWith('.json')) found.push(full);
  }
  return found;
}

/** Where a Strapi project extends the plugin's user type (`src/extensions/users-permissions/...`). */
const USERS_EXTENSION = /(^|[\\/])extensions[\\/]users-permissions[\\/]content-types[\\/]user[\\/]schema\.json$/;

/**
 * The content type schemas of files and folders (every `.json` file under a folder, e.g. a Strapi project's
 * `src/api`, whose `schema.json` files are the only JSON files there), as `createContentRouter` takes them.
 *
 * @example
 * readContentTypeSchemas(['src/api']); // [article, author, ...]
 */
export function readContentTypeSchemas(paths: readonly string[]): ContentTypeSchema[] {
  const files = paths.flatMap((p) => (fs.statSync(p).isDirectory() ? jsonFilesUnder(p) : [p]));
  for (const f of files) {
    // Read as a content type, Strapi's extension of the plugin's user would be a type of its own (api::user.user).
    if (USERS_EXTENSION.test(f)) throw new Error(`${f}: this is the users-permissions plugin's user extension, not a content type: give it with --users-extension ${f}`);
  }
  return files.map((f) => readJson(f) as ContentTypeSchema);
}

/**
 * A project's extension of the users-permissions plugin's user type
 * (`src/extensions/users-permissions/content-types/user/schema.json`), as the router's `auth.users.userSchema`
 * takes it: a JSON object whose `attributes` are an object.
 *
 * @example
 * readUsersExtension('src/extensions/users-permissions/content-types/user/schema.json'); // { attributes: {...}, ... }
 */
export function readUsersExtension(file: string): { attributes?: Record<string, unknown> } {
  const json = readJson(file);
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(json) || (json.attributes !== undefined && !isObject(json.attributes))) {
    throw new Error(`--users-extension ${file}: expected a schema.json object with "attributes" (src/extensions/users-permissions/content-types/user/schema.json)`);
  }
  return json as { attributes?: Record<string, unknown> };
}

/**
 * The components of a Strapi components folder (`<dir>/<category>/<name>.json`) keyed by uid (`category.name`).
 *
 * @example
 * readComponentSchemas('src/components'); // { 'shared.seo': {...}, ... }
 */
export function readComponentSchemas(dir: string): Record<string, ComponentSchema> {
  const components: Record<string, ComponentSchema> = {};
  for (const category of fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    for (const f of fs.readdirSync(path.join(dir, category)).filter((x) => x.endsWith('.json')).sort()) {
      components[`${category}.${f.slice(0, -'.json'.length)}`] = readJson(path.join(dir, category, f)) as ComponentSchema;
    }
  }
  return components;
}
