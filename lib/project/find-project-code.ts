import fs from 'node:fs';
import path from 'node:path';
import type { ProjectNote } from './project-note';

const CODE = /\.(?:[cm]?js|[cm]?ts|jsx|tsx)$/;

/** The source without comments, `'use strict'`, imports and requires, and all whitespace: enough to tell a template. */
function skeleton(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|\s)\/\/[^\n]*/g, '$1')
    .split('\n')
    .filter((line) => !/^\s*(?:import\s|(?:const|let|var)\s[^=]*=\s*require\(|['"]use strict['"])/.test(line))
    .join('')
    .replace(/\s+/g, '');
}

/** What Strapi's generators write for a content type: the core controller, router or service, unchanged. */
const CORE_FACTORY = /^(?:module\.exports=|exportdefault)(?:factories\.)?createCore(?:Controller|Router|Service)\((['"])[^'"]+\1\);?$/;
/** What `create-strapi-app` writes in `src/index`: empty `register`, `bootstrap` (and `destroy`). */
const EMPTY_LIFECYCLE = /^(?:module\.exports=|exportdefault)\{(?:(?:async)?(?:register|bootstrap|destroy)\(\)\{\},?)*\};?$/;

const read = (file: string): string => fs.readFileSync(file, 'utf8');

function filesUnder(dir: string): string[] {
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

const subdirs = (dir: string): string[] =>
  fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort() : [];

const EXPRESS = 'Express middleware or a route of your own server, mounted before the router (docs/strapi-projects.md)';
/** What each kind of an API's code is, and what to do instead. */
const API_CODE: Readonly<Record<string, [what: string, instead: string]>> = {
  controllers: ['a controller written as code: not run (the core controller answers)', `fixed query parameters: the routes option (query, defaultQuery); side effects of writes: lifecycles or webhooks; anything else: ${EXPRESS}`],
  services: ['a service written as code: not run (the core service answers)', `the lifecycles option for what runs around writes; router.documents(uid) in ${EXPRESS}`],
  routes: ['routes written as code: only the core routes are served, without their config (policies, middlewares, auth: false)', 'grants: auth (the Public role\'s actions, API tokens, users\' roles); other paths: router.documents(uid) in a route of your own server'],
  policies: ['a policy: not run', `who may do what: auth (the Public role, API tokens, users' roles); other checks: ${EXPRESS}`],
  middlewares: ['a route middleware: not run', EXPRESS],
};

/** The code of `src/api/*`: controllers, services, routes, policies, middlewares (templates left out), lifecycles. */
function apiCode(projectDir: string, note: (file: string, what: string, instead: string) => void): void {
  const api = path.join(projectDir, 'src', 'api');
  for (const name of subdirs(api)) {
    for (const [kind, [what, instead]] of Object.entries(API_CODE)) {
      for (const file of filesUnder(path.join(api, name, kind)).filter((f) => CODE.test(f))) {
        if (!CORE_FACTORY.test(skeleton(read(file)))) note(file, what, instead);
      }
    }
    for (const file of filesUnder(path.join(api, name, 'content-types')).filter((f) => /[\\/]lifecycles\.[^\\/]+$/.test(f) && CODE.test(f))) {
      note(file, 'lifecycle hooks written as code: not run', 'the lifecycles option takes the same hooks per content type uid (beforeCreate, afterCreate, ...; docs/options.md)');
    }
  }
}

/**
 * What a Strapi project holds as code, which is not run here, file by file with what to do instead: the code of
 * `src/api/*` (the files Strapi's generators write unchanged are left out), `src/index` with a `register` or
 * `bootstrap` body, `src/policies`, `src/middlewares`, local plugins (`src/plugins`), plugin extensions other than
 * the user type's schema, and the admin panel's customisations (`src/admin`, its `*.example.*` files left out).
 *
 * @example
 * findProjectCode('my-project'); // [{ file: 'src/api/article/controllers/article.js', what: 'a controller ...', instead: '...' }]
 */
export function findProjectCode(projectDir: string): ProjectNote[] {
  const notes: ProjectNote[] = [];
  const note = (file: string, what: string, instead: string): void => void notes.push({ file: path.relative(projectDir, file), what, instead });
  const src = path.join(projectDir, 'src');
  apiCode(projectDir, note);
  for (const file of filesUnder(src).filter((f) => path.dirname(f) === src && /^index\./.test(path.basename(f)) && CODE.test(f))) {
    if (!EMPTY_LIFECYCLE.test(skeleton(read(file)))) note(file, 'register / bootstrap code: not run', 'run it in your own server, after router.ready for what needs the data (router.documents(uid))');
  }
  for (const file of filesUnder(path.join(src, 'policies')).filter((f) => CODE.test(f))) note(file, 'a global policy: not run', API_CODE.policies![1]);
  for (const file of filesUnder(path.join(src, 'middlewares')).filter((f) => CODE.test(f))) note(file, 'a global middleware: not run', EXPRESS);
  for (const plugin of subdirs(path.join(src, 'plugins'))) {
    note(path.join(src, 'plugins', plugin), 'a local plugin: not loaded (its content types, routes and code are not served)', 'its content types can be added to src/api; its routes: a route of your own server');
  }
  const userSchema = path.join(src, 'extensions', 'users-permissions', 'content-types', 'user', 'schema.json');
  for (const file of filesUnder(path.join(src, 'extensions')).filter((f) => f !== userSchema)) {
    note(file, 'a plugin extension: not run (only the user type\'s schema.json is taken)', 'what it changes in a plugin\'s routes or controllers: a route of your own server');
  }
  for (const file of filesUnder(path.join(src, 'admin')).filter((f) => !/\.example\.|[\\/]tsconfig\.json$/.test(f))) {
    note(file, 'an admin panel customisation: the admin panel is not served', 'edit the content with the API, or the example editor (examples/admin, docs/admin.md)');
  }
  return notes;
}
