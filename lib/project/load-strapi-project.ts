import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import type { ContentRouterOptions } from '../create-content-router';
import { ConfigurationError } from '../errors';
import { readComponentSchemas, readContentTypeSchemas, readUsersExtension } from '../typegen/read-schemas';
import { apiSettings, corsSettings, uploadSettings, usersSettings, type Note } from './config-options';
import { findProjectCode } from './find-project-code';
import { configFileName, loadStrapiConfig, type ConfigName } from './load-config';
import { isPlainObject, type ProjectNote } from './project-note';
import { projectDependencies, unknownPlugins } from './project-plugins';
import { createStrapiEnv, type EnvVariables } from './strapi-env';

/** A Strapi project's files, as `createContentRouter` takes them, and what could not be taken over. */
export interface StrapiProject {
  /** The project folder (absolute). */
  readonly dir: string;
  /**
   * The options of the project's files: `contentTypes`, `components`, `rest` (config/api), `auth.users` (the
   * users-permissions plugin: its config and the user extension), `upload` (public/uploads, the upload plugin's
   * `sizeLimit` and `breakpoints`), `cors` and `bodyLimit` (config/middlewares). What Strapi keeps in its database
   * (locales, the Public role's grants, API tokens) is not here: see docs/strapi-projects.md.
   */
  readonly options: ContentRouterOptions;
  /** Where Strapi mounts the API (`api.rest.prefix`); default `/api`. */
  readonly prefix: string;
  /** `server.host` and `server.port` of config/server, when it gives them. */
  readonly server: { readonly host?: string; readonly port?: number };
  /** The uploads folder: `<dir>/public/uploads`. */
  readonly uploadsDir: string;
  /** What the project holds that is not taken over, file by file, with what to do instead. */
  readonly notTakenOver: readonly ProjectNote[];
}

export interface LoadStrapiProjectOptions {
  /**
   * The variables the config files read with `env()`; default: the project's `.env` with the process's
   * environment over it (as Strapi loads `.env` without overriding what is set).
   */
  env?: EnvVariables;
}

/** The project's `.env` parsed (Node's own parser), or nothing without one. */
function readEnvFile(dir: string): EnvVariables {
  const file = path.join(dir, '.env');
  return fs.existsSync(file) ? parseEnv(fs.readFileSync(file, 'utf8')) : {};
}

/** The content types' schema files: `src/api/<api>/content-types/<name>/schema.json`, in name order. */
function schemaFiles(dir: string): string[] {
  const api = path.join(dir, 'src', 'api');
  const list = (d: string): string[] => (fs.existsSync(d) ? fs.readdirSync(d).sort() : []);
  return list(api).flatMap((name) => list(path.join(api, name, 'content-types')).map((type) => path.join(api, name, 'content-types', type, 'schema.json'))).filter((f) => fs.existsSync(f));
}

/** The middlewares list's entries by name (`'strapi::cors'` or `{ name: 'strapi::cors', config }`), the others noted. */
function middlewareEntries(list: unknown, note: Note): Map<string, unknown> {
  const entries = new Map<string, unknown>();
  if (list === undefined) return new Map([['strapi::cors', 'strapi::cors']]); // Strapi's default list has it
  for (const entry of Array.isArray(list) ? list : []) {
    const name = typeof entry === 'string' ? entry : isPlainObject(entry) ? (entry.name ?? entry.resolve) : undefined;
    if (typeof name === 'string' && name.startsWith('strapi::')) entries.set(name, entry);
    else note(`the middleware ${JSON.stringify(name ?? entry)}: not run`, 'Express middleware of your own server, mounted before the router (docs/strapi-projects.md)');
  }
  return entries;
}

/** Options of the config files: rest, users-permissions, upload, CORS, the JSON body limit. */
function configOptions(dir: string, config: Partial<Record<ConfigName, unknown>>, usersOn: boolean, env: ReturnType<typeof createStrapiEnv>, nodeEnv: string, notes: ProjectNote[]) {
  const noteIn = (name: ConfigName): Note => (what, instead) => void notes.push({ file: configFileName(dir, name), what, instead });
  const { rest, prefix } = apiSettings(config.api, noteIn('api'));
  const plugins = isPlainObject(config.plugins) ? config.plugins : {};
  const pluginConfig = (name: string): unknown => (isPlainObject(plugins[name]) ? plugins[name].config : undefined);
  const middlewares = middlewareEntries(config.middlewares, noteIn('middlewares'));
  const body = middlewares.get('strapi::body');
  const jsonLimit = isPlainObject(body) && isPlainObject(body.config) ? body.config.jsonLimit : undefined;
  notes.push(...unknownPlugins(dir, plugins, configFileName(dir, 'plugins')));
  return {
    rest,
    prefix,
    users: usersOn ? usersSettings(pluginConfig('users-permissions'), env, nodeEnv, noteIn('plugins')) : undefined,
    upload: uploadSettings(pluginConfig('upload'), noteIn('plugins')),
    cors: corsSettings(middlewares.get('strapi::cors'), noteIn('middlewares')),
    ...(typeof jsonLimit === 'string' || typeof jsonLimit === 'number' ? { bodyLimit: jsonLimit } : {}),
  };
}

/**
 * Reads a Strapi 5 project folder as `createContentRouter` options: the content types
 * (`src/api/*\/content-types/*\/schema.json`), the components (`src/components`), the user extension
 * (`src/extensions/users-permissions/content-types/user/schema.json`), and the settings Strapi reads from `config/`
 * (JS or TS modules taking `({ env })`, loaded with jiti, `config/env/<NODE_ENV>/` merged over them): the REST limits
 * of `api`, the users-permissions plugin's JWT and rate-limit settings and the upload plugin's size limit of
 * `plugins`, the `strapi::cors` and `strapi::body` settings of `middlewares`, `server.host` and `port`, the API
 * tokens' salt of `admin` (`apiToken.salt`). `env()` reads
 * the project's `.env` under the process's environment. What the project holds as code (custom controllers,
 * policies, middlewares, plugins) is listed in `notTakenOver` with what to do instead. A folder that is no Strapi
 * project, or a config file that throws, is a `ConfigurationError` (`CR_INVALID_PROJECT`). See docs/strapi-projects.md.
 *
 * @example
 * const project = await loadStrapiProject('../my-strapi-app');
 * for (const { file, what, instead } of project.notTakenOver) console.warn(`${file}: ${what}; instead: ${instead}`);
 * app.use(project.prefix, createContentRouter({ ...project.options, engine: memoryEngine({ file: './content.db' }), auth: { public: { actions: ['api::article.article.find'] } } }));
 */
export async function loadStrapiProject(dir: string, options: LoadStrapiProjectOptions = {}): Promise<StrapiProject> {
  const root = path.resolve(dir);
  if (!fs.statSync(path.join(root, 'src'), { throwIfNoEntry: false })?.isDirectory()) {
    throw new ConfigurationError('CR_INVALID_PROJECT', `${root} is not a Strapi project: it has no src/ folder (src/api/<name>/content-types/<name>/schema.json)`);
  }
  try {
    const variables = options.env ?? { ...readEnvFile(root), ...process.env };
    const env = createStrapiEnv(variables);
    const nodeEnv = variables.NODE_ENV || 'development';
    const config = await loadStrapiConfig(path.join(root, 'config'), env, nodeEnv);
    const extensionFile = path.join(root, 'src', 'extensions', 'users-permissions', 'content-types', 'user', 'schema.json');
    const extension = fs.existsSync(extensionFile) ? readUsersExtension(extensionFile) : undefined;
    const plugins = isPlainObject(config.plugins) ? config.plugins : {};
    const usersOn = '@strapi/plugin-users-permissions' in projectDependencies(root) || extension !== undefined || isPlainObject(plugins['users-permissions']);
    const notes: ProjectNote[] = [];
    const settings = configOptions(root, config, usersOn, env, nodeEnv, notes);
    const components = path.join(root, 'src', 'components');
    const uploadsDir = path.join(root, 'public', 'uploads');
    const server = isPlainObject(config.server) ? config.server : {};
    // config/admin's apiToken.salt (Strapi's API_TOKEN_SALT): API tokens given as hashes (--options) check against it
    const apiToken = isPlainObject(config.admin) && isPlainObject(config.admin.apiToken) ? config.admin.apiToken : {};
    const salt = typeof apiToken.salt === 'string' && apiToken.salt !== '' ? { salt: apiToken.salt } : {};
    const users = settings.users ? { users: { ...settings.users, ...(extension ? { userSchema: extension } : {}) } } : {};
    return {
      dir: root,
      options: {
        contentTypes: readContentTypeSchemas(schemaFiles(root)),
        ...(fs.existsSync(components) ? { components: readComponentSchemas(components) } : {}),
        ...(Object.keys(settings.rest).length ? { rest: settings.rest } : {}),
        ...(settings.users || salt.salt ? { auth: { ...salt, ...users } } : {}),
        upload: { directory: uploadsDir, ...settings.upload },
        cors: settings.cors,
        ...(settings.bodyLimit !== undefined ? { bodyLimit: settings.bodyLimit } : {}),
      },
      prefix: settings.prefix,
      server: {
        ...(typeof server.host === 'string' ? { host: server.host } : {}),
        ...(Number.isSafeInteger(server.port) ? { port: server.port as number } : {}),
      },
      uploadsDir,
      notTakenOver: [...findProjectCode(root), ...notes],
    };
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    throw new ConfigurationError('CR_INVALID_PROJECT', `${root}: ${(error as Error).message}`);
  }
}
