import fs from 'node:fs';
import path from 'node:path';
import type express from 'express';
import { createAdmin, type ContentRouter } from '../../lib';
import { DEFAULT_ADMIN_DIR } from '../../lib/http/create-admin';

/** The types the example's editors edit (`npm start`, then http://localhost:1337/admin/). */
const EDITED_TYPES = ['api::article.article', 'api::author.author', 'api::category.category', 'api::global.global'];

/**
 * The example's "Editor" role (`auth.users.roles.editor`): read (drafts included), create, update and publish
 * (Strapi 5 publishes with a write) articles, authors, categories and `global`; browse and upload media; never
 * delete. The admin offers what the role may do: no delete button.
 */
export function editorActions(): string[] {
  return [
    ...EDITED_TYPES.flatMap((uid) => ['find', 'findOne', 'create', 'update', 'findDrafts'].map((action) => `${uid}.${action}`)),
    'plugin::upload.content-api.find',
    'plugin::upload.content-api.findOne',
    'plugin::upload.content-api.upload',
    'plugin::i18n.locales.listLocales',
    // What any logged-in user has (Strapi's Authenticated defaults): their own account, password, sessions.
    ...['user.me', 'auth.changePassword', 'auth.logout', 'auth.getSessions', 'auth.revokeSession'].map((action) => `plugin::users-permissions.${action}`),
  ];
}

/**
 * Mounts the built-in admin at `/admin` when it is built (`npm run build`: `dist/admin/`). Without a build (the
 * example run from a fresh checkout), `/admin` says how to make one instead of the example refusing to start.
 */
export function mountAdmin(app: express.Express, router: ContentRouter, assetsDir = DEFAULT_ADMIN_DIR): void {
  if (fs.existsSync(path.join(assetsDir, 'index.html'))) {
    app.use('/admin', createAdmin(router, { assetsDir }));
    return;
  }
  app.use('/admin', (_req, res) => {
    res.status(503).type('text').set('Cache-Control', 'no-store').send('The admin is not built: run `npm run build` in the content-router folder, then restart `npm start`.\n');
  });
}
