import path from 'node:path';
import bcrypt from 'bcryptjs';
import express from 'express';
import { createContentRouter, type ContentTypeSchema, type Engine } from '../../lib';
import { createArchiveWriter } from '../../lib/transfer/archive-writer';
import { loadBlogModel } from '../../examples/blog/model';
import { testEngine } from '../helpers/test-engine';
import { LOCALES, tempDir, TOKEN, type BlogTarget } from './transfer-helpers';

export const USER = 'plugin::users-permissions.user';
export const ROLE = 'plugin::users-permissions.role';
export const PERMISSION = 'plugin::users-permissions.permission';
export const JWT_SECRET = 'transfer-users-test-secret';

/** A content type relating to users, as a Strapi project writes one (a unidirectional manyToOne). */
export const NOTE: ContentTypeSchema = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' }, owner: { type: 'relation', relation: 'manyToOne', target: USER } },
};

export const PASSWORDS = { alice: 'Alice-pass-1', bob: 'Bob-pass-22' };

/** A password hashed as Strapi stores it (bcryptjs 2 writes `$2a$`; the same hash as `$2b$` below 255 bytes); cost 4 keeps tests fast. */
const strapiHash = (password: string): string => bcrypt.hashSync(password, 4).replace(/^\$2b\$/, '$2a$');
export const HASHES = { alice: strapiHash(PASSWORDS.alice), bob: strapiHash(PASSWORDS.bob) };

const AT = '2026-11-25T10:47:11.120Z';
const stamps = { createdAt: AT, updatedAt: AT, publishedAt: AT, locale: null };

export const ROLES = [
  { id: 1, data: { documentId: 'roleauthenticated0000001', name: 'Authenticated', description: 'Default role given to authenticated user.', type: 'authenticated', ...stamps } },
  { id: 2, data: { documentId: 'rolepublic00000000000002', name: 'Public', description: 'Default role given to unauthenticated user.', type: 'public', ...stamps } },
  { id: 3, data: { documentId: 'roleeditor00000000000003', name: 'Editor', description: 'Writes notes', type: 'editor', ...stamps } },
];

/** Permission id, action, role id, position on the role's side: in the file's order, not the roles' order. */
const GRANTS: [number, string, number, number][] = [
  [1, 'plugin::users-permissions.user.me', 1, 2],
  [2, 'api::note.note.find', 1, 3],
  [3, 'plugin::users-permissions.user.find', 1, 1],
  [4, 'plugin::users-permissions.auth.callback', 2, 1],
  [5, 'api::note.note.create', 3, 2],
  [6, 'api::note.note.find', 3, 1],
  [7, 'plugin::users-permissions.user.me', 3, 3],
];

/** Each role's grants in Strapi's order (by position on the role's side), by role documentId. */
export const EXPECTED_GRANTS: Record<string, string[]> = {
  roleauthenticated0000001: ['plugin::users-permissions.user.find', 'plugin::users-permissions.user.me', 'api::note.note.find'],
  rolepublic00000000000002: ['plugin::users-permissions.auth.callback'],
  roleeditor00000000000003: ['api::note.note.find', 'api::note.note.create', 'plugin::users-permissions.user.me'],
};

const user = (name: 'alice' | 'bob', documentId: string) => ({
  documentId, username: name, email: `${name}@example.com`, provider: 'local', password: HASHES[name],
  resetPasswordToken: null, confirmationToken: name === 'bob' ? 'pending-token' : null, confirmed: true, blocked: false, ...stamps,
});

export const USERS = [
  { id: 1, data: user('alice', 'useralice000000000000001'), role: 1 },
  { id: 2, data: user('bob', 'userbob00000000000000002'), role: 3 },
];

type Line = Record<string, unknown>;
const localizations = (type: string, ref: number, documentId: string): Line => ({ kind: 'relation.circular', relation: 'oneToMany', left: { type, ref, field: 'localizations' }, right: { type, ref: documentId } });

/** The entity and link lines of the export, as Strapi 5's `strapi export` writes them. */
function lines(notes: boolean): { entities: Line[]; links: Line[] } {
  const entities: Line[] = [
    ...GRANTS.map(([id, action]) => ({ type: PERMISSION, id, data: { documentId: `permission${String(id).padStart(14, '0')}`, action, ...stamps } })),
    ...ROLES.map((r) => ({ type: ROLE, ...r })),
    ...USERS.map(({ id, data }) => ({ type: USER, id, data })),
    ...(notes ? [1, 2].map((id) => ({ type: 'api::note.note', id, data: { documentId: `note${id}`, title: `Note of ${USERS[id - 1]!.data.username}`, ...stamps } })) : []),
  ];
  const links: Line[] = [
    ...GRANTS.map(([id, , role, pos]) => ({ kind: 'relation.basic', relation: 'manyToOne', left: { type: PERMISSION, field: 'role', ref: id }, right: { type: ROLE, field: 'permissions', ref: role, pos } })),
    ...USERS.map(({ id, role }, i) => ({ kind: 'relation.basic', relation: 'manyToOne', left: { type: USER, field: 'role', ref: id }, right: { type: ROLE, field: 'users', ref: role, pos: i + 1 } })),
    ...(notes ? [1, 2].map((id) => ({ kind: 'relation.basic', relation: 'manyToOne', left: { type: 'api::note.note', field: 'owner', ref: id }, right: { type: USER, ref: id } })) : []),
    ...entities.map((e) => localizations(e.type as string, e.id as number, (e.data as { documentId: string }).documentId)),
  ];
  return { entities, links };
}

/**
 * A small export with users, roles and permissions written with lib/transfer's own writer as Strapi writes one
 * (the blog fixture has roles and permissions but no user): `edit` changes or drops lines, `extra` adds some.
 */
export async function usersExport(options: { notes?: boolean; edit?: (stage: string, line: Line) => Line | undefined; extra?: { stage: string; value: Line }[] } = {}): Promise<string> {
  const file = path.join(tempDir('users'), 'export.tar');
  const out = createArchiveWriter(file, { gzip: false });
  const { entities, links } = lines(options.notes ?? true);
  for (const [stage, values] of [['entities', entities], ['links', links]] as const) {
    const writer = out.jsonl(stage);
    for (const value of [...values, ...(options.extra ?? []).filter((e) => e.stage === stage).map((e) => e.value)]) {
      const edited = options.edit ? options.edit(stage, value) : value;
      if (edited) await writer.write(edited);
    }
    await writer.close();
  }
  await out.buffer('metadata.json', JSON.stringify({ createdAt: AT, strapi: { version: '5.54.0' } }));
  await out.finish();
  return file;
}

/** The blog model with notes, and `auth.users` on (the roles seeded at start-up), on a fresh test engine. */
export async function usersTarget(engine: Engine = testEngine()): Promise<BlogTarget> {
  const model = loadBlogModel();
  const uploads = tempDir('uploads');
  const router = createContentRouter({
    contentTypes: [...model.contentTypes, NOTE],
    components: model.components,
    engine,
    i18n: { locales: LOCALES, defaultLocale: 'en' },
    auth: { apiTokens: [{ name: 'test', type: 'full-access', accessKey: TOKEN }], users: { jwtSecret: JWT_SECRET, ratelimit: false } },
    upload: { directory: uploads },
    logger: false,
  });
  await router.ready;
  const app = express();
  app.use('/api', router);
  return { router, app, engine, uploads };
}
