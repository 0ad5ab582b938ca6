import express from 'express';
import request from 'supertest';
import { createContentRouter, type ContentRouter, type ContentRouterOptions, type Engine } from '../../../lib';
import { testEngine } from '../../helpers/test-engine';

export const JWT_SECRET = 'test-users-permissions-secret';
export const FULL = 'users-test-full-access-token';
export const READONLY = 'users-test-read-only-token';

/** A content type owned by a user (`owner` -> plugin::users-permissions.user), to test relations to users. */
export const noteType = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: {
    title: { type: 'string' },
    owner: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' },
  },
};

/** A second type no JWT role may find (relations to it in bodies must not tell which ids exist). */
export const tagType = {
  kind: 'collectionType',
  collectionName: 'tags',
  info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
  options: { draftAndPublish: false },
  attributes: { name: { type: 'string' }, notes: { type: 'relation', relation: 'manyToMany', target: 'api::note.note', mappedBy: 'tags' } },
};

export interface UsersApp {
  app: express.Express;
  router: ContentRouter;
  engine: Engine;
}

type UsersOverrides = Partial<NonNullable<ContentRouterOptions['auth']>['users']>;

/**
 * An app with notes, tags and users-permissions: the Public role may read notes, the Authenticated role may read,
 * create and update notes and find users; a full-access, a read-only and a custom (note writer) API token.
 */
export async function createUsersApp(users: UsersOverrides = {}, engine: Engine = testEngine()): Promise<UsersApp> {
  const note = { ...noteType, attributes: { ...noteType.attributes, tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'notes' } } };
  const router = createContentRouter({
    contentTypes: [note, tagType] as ContentRouterOptions['contentTypes'],
    engine,
    logger: false,
    auth: {
      public: { actions: ['api::note.note.find', 'api::note.note.findOne'] },
      apiTokens: [
        { name: 'full', type: 'full-access', accessKey: FULL },
        { name: 'ro', type: 'read-only', accessKey: READONLY },
        { name: 'writer', type: 'custom', accessKey: 'users-test-custom-writer-token', permissions: ['api::note.note.create', 'api::note.note.update'] },
      ],
      users: {
        jwtSecret: JWT_SECRET,
        roles: { authenticated: { actions: ['api::note.note.find', 'api::note.note.findOne', 'api::note.note.create', 'api::note.note.update', 'plugin::users-permissions.user.find'] } },
        ...users,
      },
    },
    upload: false,
  });
  await router.ready;
  const app = express();
  app.disable('x-powered-by');
  app.use('/api', router);
  return { app, router, engine };
}

/** Registers a user and answers its JWT and id. */
export async function registerUser(app: express.Express, username: string, password = `${username}-Pass-1`): Promise<{ jwt: string; id: number; documentId: string }> {
  const res = await request(app).post('/api/auth/local/register').send({ username, email: `${username}@example.com`, password });
  if (res.status !== 200) throw new Error(`register ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  const body = res.body as { jwt: string; user: { id: number; documentId: string } };
  return { jwt: body.jwt, id: body.user.id, documentId: body.user.documentId };
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** A custom API token that may create and update notes, and nothing else (it cannot find tags nor users). */
export const WRITER = 'users-test-custom-writer-token';
