// The browser test's server: the blog example app (createBlogApp: the blog model, locales en and fr, users and
// permissions, uploads, and the built admin served by createAdmin at /admin) on 127.0.0.1 and a free port. It prints
// one JSON line `{ "url": ... }` once it listens. Two users (password "Password-1234"): `editor`, of a "Chief editor"
// role created through the REST API as a host would (every action on every content type and the media library),
// and `author`, of the example's own Editor role (the same without delete). A second router on the model with every attribute type
// is mounted at /api2, with its own createAdmin at /admin2.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { createAdmin, createContentRouter, memoryEngine } from '../../lib';
import { createBlogApp } from '../../examples/blog/app';
import { loadBlogModel } from '../../examples/blog/model';
import { everyTypeComponents, everyTypeContentTypes, everyTypeCustomFields } from './every-type-model';

const PASSWORD = 'Password-1234';
/** The full-access token of the every-type router (test data, not a secret). */
const EVERY_TYPE_TOKEN = 'e2e-every-type-token-5d0c8a1f3b6e9d2c7a4f1e8b5c2d9a6f3e0b7c4d1a8f5e2b9c6d3a0f7e4b1c8d';

type Tree = Record<string, { controllers: Record<string, Record<string, { enabled: boolean }>> }>;

async function main(): Promise<void> {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'content-router-admin-e2e-'));
  const uploadsDir = path.join(data, 'uploads');
  const blog = await createBlogApp({ uploadsDir, jwtSecretFile: path.join(data, 'jwt-secret') });
  const model = loadBlogModel();
  const fullAccess = model.permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;
  const app = express();
  let base = '';
  const api = async (method: string, route: string, body?: unknown, token: string | null = fullAccess) => {
    const res = await fetch(`${base}/api${route}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as any };
  };

  // The model with every attribute type, on a router of its own at /api2 (admin at /admin2, API token login).
  const everyRouter = createContentRouter({
    contentTypes: everyTypeContentTypes,
    components: everyTypeComponents,
    customFields: everyTypeCustomFields,
    engine: memoryEngine({ ephemeral: true }),
    i18n: { locales: ['en', 'fr'] },
    auth: { apiTokens: [{ name: 'admin-e2e', type: 'full-access', accessKey: EVERY_TYPE_TOKEN }] },
    upload: { directory: uploadsDir },
  });
  await everyRouter.ready;
  app.use('/api2', everyRouter);
  app.use('/admin2', createAdmin(everyRouter)); // config.json says /api2: where this app mounts everyRouter
  app.use(blog.app); // its /api and, the admin being built (npm run e2e:admin builds it), createAdmin at /admin
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // The roles and users of the test, through the REST API (users-permissions roles and users routes).
  const all = (actions: string[]) => Object.fromEntries(actions.map((a) => [a, { enabled: true }]));
  const tree = (): Tree => {
    const out: Tree = {};
    for (const schema of model.contentTypes as any[]) {
      const name = schema.info.singularName as string;
      const actions = schema.kind === 'singleType' ? ['find', 'update', 'delete', 'findDrafts'] : ['find', 'findOne', 'create', 'update', 'delete', 'findDrafts'];
      out[`api::${name}`] = { controllers: { [name]: all(actions) } };
    }
    out['plugin::upload'] = { controllers: { 'content-api': all(['find', 'findOne', 'upload', 'destroy']) } };
    out['plugin::i18n'] = { controllers: { locales: all(['listLocales']) } };
    out['plugin::users-permissions'] = { controllers: { user: all(['me']), auth: all(['logout', 'changePassword']) } };
    return out;
  };
  // "Chief editor" (everything, delete included) is made over the REST API as a host would; "Editor" is the example
  // app's own role (auth.users.roles.editor: no delete), as `npm run admin:editor` uses it.
  const chief = await api('POST', '/users-permissions/roles', { name: 'Chief editor', description: 'Chief editor of the admin test', permissions: tree() });
  if (chief.status !== 200) throw new Error(`role Chief editor: ${chief.status} ${JSON.stringify(chief.body)}`);
  const roles = await api('GET', '/users-permissions/roles');
  for (const [username, roleName] of [['editor', 'Chief editor'], ['author', 'Editor']] as const) {
    const id = roles.body.roles.find((r: { name: string }) => r.name === roleName).id;
    const user = await api('POST', '/users', { username, email: `${username}@example.com`, password: PASSWORD, role: id, confirmed: true });
    if (user.status !== 201) throw new Error(`user ${username}: ${user.status} ${JSON.stringify(user.body)}`);
  }
  console.log(JSON.stringify({ url: base, token: fullAccess, everyTypeToken: EVERY_TYPE_TOKEN }));
  const stop = () => server.close(() => void blog.close().then(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
