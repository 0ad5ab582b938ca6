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
import { createContentRouter, memoryEngine, type ComponentSchema, type ContentRouter, type ContentTypeSchema } from '../../lib';
import { createBlogApp } from '../../examples/blog/app';
import { loadBlogModel } from '../../examples/blog/model';
import { everyTypeComponents, everyTypeContentTypes, everyTypeCustomFields } from './every-type-model';

const PASSWORD = 'Password-1234';
/** The full-access token of the every-type router (test data, not a secret). */
const EVERY_TYPE_TOKEN = 'e2e-every-type-token-5d0c8a1f3b6e9d2c7a4f1e8b5c2d9a6f3e0b7c4d1a8f5e2b9c6d3a0f7e4b1c8d';
const repoRoot = path.resolve(__dirname, '../..');

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

  // ---- TEMPORARY (admin-api branch): the model endpoint and the unpublish / discard-draft actions ----
  const blogSite = temporaryAdminRoutes(app, '/api', {
    schemas: model.contentTypes, components: model.components, router: blog.router, tokens: model.permissions.apiTokens,
    userGrants: async (token) => {
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
    },
  });
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
  temporaryAdminRoutes(app, '/api2', {
    schemas: everyTypeContentTypes, components: everyTypeComponents, router: everyRouter,
    tokens: [{ type: 'full-access', accessKey: EVERY_TYPE_TOKEN }], customFields: everyTypeCustomFields,
    userGrants: async () => null,
  });
  app.get('/admin2/config.json', (_req, res) => void res.json({ apiUrl: '/api2' })); // TEMPORARY: createAdmin's
  app.use('/admin2', express.static(path.join(repoRoot, 'dist/admin')));
  app.use('/api2', everyRouter);
  void blogSite;
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
    for (const schema of model.contentTypes as any[]) {
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
  console.log(JSON.stringify({ url: base, token: fullAccess, everyTypeToken: EVERY_TYPE_TOKEN }));
  const stop = () => server.close(() => void blog.close().then(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

// ---- TEMPORARY (admin-api branch): a stand-in for the router's model endpoint and document actions ----
type Grants = { caller: unknown; can: (uid: string, action: string) => boolean };
interface SiteModel {
  schemas: ContentTypeSchema[];
  components: Record<string, ComponentSchema>;
  router: ContentRouter;
  tokens: { type: string; accessKey: string }[];
  customFields?: Record<string, { type: string }>;
  userGrants: (token: string) => Promise<Grants | null>;
}

function temporaryAdminRoutes(app: express.Express, mount: string, site: SiteModel): void {
  const types = site.schemas.map((schema: any) => ({
    schema,
    uid: `api::${schema.info.singularName}.${schema.info.singularName}`,
    route: schema.kind === 'singleType' ? schema.info.singularName : schema.info.pluralName,
  }));
  const grantsOf = async (authorization: string | undefined): Promise<Grants | null> => {
    const token = authorization?.replace(/^Bearer\s+/i, '');
    const apiToken = site.tokens.find((t) => t.accessKey === token);
    if (apiToken) {
      const write = apiToken.type === 'full-access';
      return { caller: { kind: 'token', type: apiToken.type }, can: (_uid, action) => write || ['find', 'findOne', 'findDrafts'].includes(action) };
    }
    return token ? site.userGrants(token) : null;
  };
  const attributesOf = (attributes: Record<string, any>) =>
    Object.fromEntries(Object.entries(attributes).map(([name, a]) => [name, a.type === 'customField' ? { ...a, type: site.customFields?.[a.customField]?.type ?? 'string' } : a]));
  const failure = (res: express.Response, status: number, name: string, message: string) => void res.status(status).json({ data: null, error: { status, name, message, details: {} } });
  app.get(`${mount}/content-router/model`, async (req, res) => {
    const grants = await grantsOf(req.headers.authorization);
    if (!grants) return failure(res, 401, 'UnauthorizedError', 'Missing or invalid credentials');
    const { can, caller } = grants;
    const contentTypes = types
      .map(({ schema, uid, route }: any) => {
        const p = (a: string) => can(uid, a);
        const dp = schema.options?.draftAndPublish === true;
        const permissions = { find: p('find'), findOne: p('findOne'), create: p('create'), update: p('update'), delete: p('delete'), publish: dp && (p('create') || p('update')), readDrafts: dp && p('findDrafts') };
        return {
          uid, kind: schema.kind, singularName: schema.info.singularName, pluralName: schema.info.pluralName, displayName: schema.info.displayName,
          route, draftAndPublish: dp, localized: schema.pluginOptions?.i18n?.localized === true, attributes: attributesOf(schema.attributes), permissions,
        };
      })
      .filter((ct) => Object.values(ct.permissions).some(Boolean));
    const components = Object.entries(site.components).map(([uid, c]: [string, any]) => ({ uid, category: uid.split('.')[0], displayName: c.info?.displayName ?? uid, attributes: attributesOf(c.attributes) }));
    const upload = (a: string) => can('plugin::upload.content-api', a);
    const media = { find: upload('find'), findOne: upload('findOne'), upload: upload('upload'), update: upload('upload'), destroy: upload('destroy') };
    const locales = [{ code: 'en', name: 'English (en)', isDefault: true }, { code: 'fr', name: 'French (fr)', isDefault: false }];
    res.set('Cache-Control', 'no-store').json({ data: { contentTypes, components, locales, media, caller }, meta: {} });
  });
  app.post([`${mount}/:route/:documentId/actions/:action`, `${mount}/:route/actions/:action`], async (req, res) => {
    const type = types.find((t) => t.route === req.params.route);
    const grants = await grantsOf(req.headers.authorization);
    const action = String(req.params.action);
    if (!grants) return failure(res, 401, 'UnauthorizedError', 'Missing or invalid credentials');
    if (!type || !['unpublish', 'discard-draft'].includes(action)) return failure(res, 404, 'NotFoundError', 'Not Found');
    if (!grants.can(type.uid, 'update')) return failure(res, 403, 'ForbiddenError', 'Forbidden');
    const documents = site.router.documents(type.uid as never) as any;
    const documentId = (req.params as { documentId?: string }).documentId ?? (await documents.findFirst({}))?.documentId;
    const locale = typeof req.query.locale === 'string' ? req.query.locale : undefined;
    const result = action === 'unpublish' ? await documents.unpublish({ documentId, locale }) : await documents.discardDraft({ documentId, locale });
    res.json({ data: result, meta: {} });
  });
}
// ---- end of TEMPORARY ----

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
