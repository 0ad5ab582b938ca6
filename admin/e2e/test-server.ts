// The browser test's server: the blog example app (createBlogApp: the blog model, locales en and fr, users and
// permissions, uploads) with the built admin (dist/admin) served at /admin, on 127.0.0.1 and a free port. It prints
// one JSON line `{ "url": ... }` once it listens. Two roles are created through the REST API as a host would:
// Editor (every action on every content type and the media library) and Author (the same without delete), each
// with a user (editor / author, password "Password-1234").
//
// TEMPORARY, until the admin-api branch is merged (see ADMIN-CONTRACT.md): this file also answers
// `GET /api/content-router/model` and the draft & publish actions `POST /api/<route>/<documentId>/actions/unpublish`
// and `.../actions/discard-draft`, which the router does not have on this branch. Both are marked below and are
// to be deleted once the router serves them (createAdmin then replaces the express.static too).
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { createBlogApp } from '../../examples/blog/app';
import { loadBlogModel } from '../../examples/blog/model';

const PASSWORD = 'Password-1234';
const repoRoot = path.resolve(__dirname, '../..');

type Tree = Record<string, { controllers: Record<string, Record<string, { enabled: boolean }>> }>;

async function main(): Promise<void> {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'content-router-admin-e2e-'));
  const blog = await createBlogApp({ uploadsDir: path.join(data, 'uploads'), jwtSecretFile: path.join(data, 'jwt-secret') });
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

  // ---- TEMPORARY (admin-api branch): the model endpoint and the unpublish / discard-draft actions ----
  const types = model.contentTypes.map((schema: any) => ({
    schema,
    uid: `api::${schema.info.singularName}.${schema.info.singularName}`,
    route: schema.kind === 'singleType' ? schema.info.singularName : schema.info.pluralName,
  }));
  /** The caller's grants: `can(action)` over the role's permission tree (users), or every action (full-access token). */
  const grantsOf = async (authorization: string | undefined): Promise<{ caller: unknown; can: (uid: string, action: string) => boolean } | null> => {
    const token = authorization?.replace(/^Bearer\s+/i, '');
    const apiToken = model.permissions.apiTokens.find((t) => t.accessKey === token);
    if (apiToken) {
      const write = apiToken.type === 'full-access';
      return { caller: { kind: 'token', type: apiToken.type }, can: (_uid, action) => write || ['find', 'findOne', 'findDrafts'].includes(action) };
    }
    if (!token) return null;
    const self = await api('GET', '/users/me', undefined, token);
    if (self.status !== 200) return null;
    const me = await api('GET', `/users/${self.body.id}?populate=role`);
    const role = await api('GET', `/users-permissions/roles/${me.body.role.id}`);
    const tree = role.body.role.permissions as Tree;
    const can = (uid: string, action: string) => {
      const [plugin, rest] = uid.split('::') as [string, string];
      const [apiName, controller] = rest.includes('.') ? rest.split('.') : [rest, rest];
      return tree[`${plugin}::${apiName}`]?.controllers[controller!]?.[action]?.enabled === true;
    };
    return { caller: { kind: 'user', id: me.body.id, username: me.body.username, email: me.body.email, role: { name: me.body.role.name, type: me.body.role.type } }, can };
  };
  app.get('/api/content-router/model', async (req, res) => {
    const grants = await grantsOf(req.headers.authorization);
    if (!grants) return void res.status(401).json({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } });
    const { can, caller } = grants;
    const contentTypes = types
      .map(({ schema, uid, route }) => {
        const p = (a: string) => can(uid, a);
        const dp = schema.options?.draftAndPublish === true;
        const permissions = { find: p('find'), findOne: p('findOne'), create: p('create'), update: p('update'), delete: p('delete'), publish: dp && (p('create') || p('update')), readDrafts: dp && p('findDrafts') };
        return {
          uid, kind: schema.kind, singularName: schema.info.singularName, pluralName: schema.info.pluralName, displayName: schema.info.displayName,
          route, draftAndPublish: dp, localized: schema.pluginOptions?.i18n?.localized === true, attributes: schema.attributes, permissions,
        };
      })
      .filter((ct) => Object.values(ct.permissions).some(Boolean));
    const components = Object.entries(model.components).map(([uid, c]: [string, any]) => ({ uid, category: uid.split('.')[0], displayName: c.info?.displayName ?? uid, attributes: c.attributes }));
    const media = { find: can('plugin::upload.content-api', 'find'), findOne: can('plugin::upload.content-api', 'findOne'), upload: can('plugin::upload.content-api', 'upload'), update: can('plugin::upload.content-api', 'upload'), destroy: can('plugin::upload.content-api', 'destroy') };
    const locales = [{ code: 'en', name: 'English (en)', isDefault: true }, { code: 'fr', name: 'French (fr)', isDefault: false }];
    res.set('Cache-Control', 'no-store').json({ data: { contentTypes, components, locales, media, caller }, meta: {} });
  });
  app.post(['/api/:route/:documentId/actions/:action', '/api/:route/actions/:action'], async (req, res) => {
    const type = types.find((t) => t.route === req.params.route);
    const grants = await grantsOf(req.headers.authorization);
    const action = req.params.action;
    if (!type || !grants || !['unpublish', 'discard-draft'].includes(String(action))) return void res.status(404).json({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
    if (!grants.can(type.uid, 'update')) return void res.status(403).json({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
    const documents = blog.router.documents(type.uid as any) as any;
    const documentId = req.params.documentId ?? (await documents.findFirst({}))?.documentId;
    const locale = typeof req.query.locale === 'string' ? req.query.locale : undefined;
    const result = action === 'unpublish' ? await documents.unpublish({ documentId, locale }) : await documents.discardDraft({ documentId, locale });
    res.json({ data: result, meta: {} });
  });
  // ---- end of TEMPORARY ----

  app.get('/admin/config.json', (_req, res) => void res.json({ apiUrl: '/api' })); // TEMPORARY: createAdmin's
  app.use('/admin', express.static(path.join(repoRoot, 'dist/admin')));
  app.use(blog.app);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // The roles and users of the test, through the REST API (users-permissions roles and users routes).
  const all = (actions: string[]) => Object.fromEntries(actions.map((a) => [a, { enabled: true }]));
  const tree = (withDelete: boolean): Tree => {
    const out: Tree = {};
    for (const { schema } of types) {
      const name = schema.info.singularName as string;
      const actions = schema.kind === 'singleType' ? ['find', 'update', ...(withDelete ? ['delete'] : []), 'findDrafts'] : ['find', 'findOne', 'create', 'update', ...(withDelete ? ['delete'] : []), 'findDrafts'];
      out[`api::${name}`] = { controllers: { [name]: all(actions) } };
    }
    out['plugin::upload'] = { controllers: { 'content-api': all(['find', 'findOne', 'upload', ...(withDelete ? ['destroy'] : [])]) } };
    out['plugin::i18n'] = { controllers: { locales: all(['listLocales']) } };
    out['plugin::users-permissions'] = { controllers: { user: all(['me']), auth: all(['logout', 'changePassword']) } };
    return out;
  };
  for (const [name, withDelete] of [['Editor', true], ['Author', false]] as const) {
    const role = await api('POST', '/users-permissions/roles', { name, description: `${name} of the admin test`, permissions: tree(withDelete) });
    if (role.status !== 200) throw new Error(`role ${name}: ${role.status} ${JSON.stringify(role.body)}`);
    const roles = await api('GET', '/users-permissions/roles');
    const id = roles.body.roles.find((r: { name: string }) => r.name === name).id;
    const user = await api('POST', '/users', { username: name.toLowerCase(), email: `${name.toLowerCase()}@example.com`, password: PASSWORD, role: id, confirmed: true });
    if (user.status !== 201) throw new Error(`user ${name}: ${user.status} ${JSON.stringify(user.body)}`);
  }
  console.log(JSON.stringify({ url: base, token: fullAccess }));
  const stop = () => server.close(() => void blog.close().then(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
