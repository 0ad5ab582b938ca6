import fs from 'node:fs';
import path from 'node:path';
import { isPlainObject, type ProjectNote } from './project-note';

/** Plugins taken over, or with nothing to take over (the admin panel's own). */
const KNOWN = new Set(['users-permissions', 'upload', 'i18n', 'cloud', 'content-manager', 'content-type-builder', 'email']);

/** What to do instead of a few well-known plugins. */
const INSTEAD: Readonly<Record<string, string>> = {
  documentation: 'the openapi option serves an OpenAPI 3.1 document of the API (openapi: true; docs/openapi.md)',
  graphql: 'not served: the REST API only',
  sentry: 'the onError option receives every unexpected error with its request (docs/options.md)',
};

/** A plugin's name from its package name (`@strapi/plugin-seo`, `strapi-plugin-seo`, `@acme/strapi-plugin-seo`). */
function pluginName(pkg: string): string | undefined {
  return /^(?:@strapi\/plugin-|(?:@[^/]+\/)?strapi-plugin-)(.+)$/.exec(pkg)?.[1];
}

/** The dependencies of the project's package.json (none without one). */
export function projectDependencies(projectDir: string): Record<string, unknown> {
  const file = path.join(projectDir, 'package.json');
  if (!fs.existsSync(file)) return {};
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  return isPlainObject(pkg) && isPlainObject(pkg.dependencies) ? pkg.dependencies : {};
}

/**
 * The plugins the project installs (package.json) or configures (`config/plugins`) that are not taken over, each
 * with what to do instead.
 *
 * @example
 * unknownPlugins('my-project', { graphql: {} }, 'config/plugins.js'); // [{ file: 'package.json', what: 'the plugin graphql ...', ... }]
 */
export function unknownPlugins(projectDir: string, plugins: Record<string, unknown>, pluginsFile: string): ProjectNote[] {
  const notes: ProjectNote[] = [];
  const seen = new Set<string>();
  const add = (name: string, file: string): void => {
    if (KNOWN.has(name) || seen.has(name)) return;
    seen.add(name);
    notes.push({ file, what: `the plugin ${name}: not known here (its routes, content types and code are not served)`, instead: INSTEAD[name] ?? 'its content types can be added to src/api; its routes: a route of your own server' });
  };
  for (const pkg of Object.keys(projectDependencies(projectDir))) {
    const name = pluginName(pkg);
    if (name !== undefined) add(name, 'package.json');
  }
  for (const [name, value] of Object.entries(plugins)) if (!(isPlainObject(value) && value.enabled === false)) add(name, pluginsFile);
  return notes;
}
