import type { IncomingMessage } from 'node:http';
import { createRegistry } from '../../../lib/schema';
import type { Registry } from '../../../lib/schema';

const type = (singularName: string, pluralName: string, kind = 'collectionType', draftAndPublish = true) => ({
  kind,
  info: { singularName, pluralName },
  options: { draftAndPublish },
  attributes: { name: { type: 'string' } },
});

/** A small model: article (draft & publish), author (no D&P), global (single type). */
export const registry: Registry = createRegistry({
  contentTypes: [type('article', 'articles'), type('author', 'authors', 'collectionType', false), type('global', 'globals', 'singleType')],
});

export const ARTICLE = 'api::article.article';
export const AUTHOR = 'api::author.author';
export const GLOBAL = 'api::global.global';
export const UPLOAD = 'plugin::upload.content-api';
export const FILE = 'plugin::upload.file';

/** The public permissions of the blog fixture (../shared/fixtures/blog/permissions.json). */
export const PUBLIC_ACTIONS = [`${ARTICLE}.find`, `${ARTICLE}.findOne`, `${GLOBAL}.find`];

export const FULL_KEY = 'oracle-full-access-token-7f3a9c1e5b2d4f6a8c0e1b3d5f7a9c2e';
export const READ_KEY = 'oracle-read-only-token-4b6d8f0a2c4e6a8b0d2f4a6c8e0b2d4f';

/** A request carrying only headers (all the authenticator reads). */
export function request(authorization?: string): IncomingMessage {
  return { headers: authorization === undefined ? {} : { authorization } } as IncomingMessage;
}
