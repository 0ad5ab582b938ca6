import { createAuth, hashAccessKey } from '../../../lib/auth';
import type { AuthOptions } from '../../../lib/auth';
import { ConfigurationError } from '../../../lib/errors';
import { ARTICLE, registry } from './fixtures';

const H = hashAccessKey('k', 's');

function failure(options: unknown): ConfigurationError {
  try {
    createAuth(options as AuthOptions, registry);
  } catch (err) {
    if (err instanceof ConfigurationError) return err;
    throw err;
  }
  throw new Error('createAuth accepted the options');
}

describe('options.auth validation', () => {
  it.each<[string, unknown, string]>([
    ['not an object', 'yes', 'auth must be object'],
    ['null', null, 'auth must be object'],
    ['a string', 'all', 'auth must be object'],
    ['an unknown key', { apitokens: [] }, 'auth.apitokens: unknown key (did you mean "apiTokens"?); allowed: apiTokens, salt, public, resolve, drafts'],
    ['a token without name', { apiTokens: [{ type: 'read-only', accessKey: 'k' }] }, "auth.apiTokens[0] must have required property 'name'"],
    ['a bad token type', { apiTokens: [{ name: 'a', type: 'admin', accessKey: 'k' }] }, 'auth.apiTokens[0].type must be one of "read-only", "full-access", "custom"'],
    ['a token with neither key nor hash', { apiTokens: [{ name: 'a', type: 'read-only' }] }, 'auth.apiTokens[0] needs an accessKey or a hash'],
    ['an empty accessKey', { apiTokens: [{ name: 'a', type: 'read-only', accessKey: '' }] }, 'auth.apiTokens[0].accessKey'],
    ['an accessKey with spaces', { apiTokens: [{ name: 'a', type: 'read-only', accessKey: 'a b' }] }, 'auth.apiTokens[0].accessKey'],
    ['a malformed hash', { salt: 's', apiTokens: [{ name: 'a', type: 'read-only', hash: 'abc' }] }, 'auth.apiTokens[0].hash'],
    ['a hash without salt', { apiTokens: [{ name: 'a', type: 'read-only', hash: H }] }, 'auth.salt is required'],
    ['a hash that is not the accessKey', { salt: 's', apiTokens: [{ name: 'a', type: 'read-only', accessKey: 'x', hash: H }] }, 'auth.apiTokens[0].hash is not hashAccessKey'],
    ['duplicate names', { apiTokens: [{ name: 'a', type: 'read-only', accessKey: 'k' }, { name: 'a', type: 'full-access', accessKey: 'l' }] }, 'auth.apiTokens[1].name'],
    ['duplicate values', { apiTokens: [{ name: 'a', type: 'read-only', accessKey: 'k' }, { name: 'b', type: 'full-access', accessKey: 'k' }] }, 'auth.apiTokens[1] has the same value'],
    ['a custom token without permissions', { apiTokens: [{ name: 'a', type: 'custom', accessKey: 'k' }] }, 'auth.apiTokens[0].permissions is required'],
    ['permissions on a read-only token', { apiTokens: [{ name: 'a', type: 'read-only', accessKey: 'k', permissions: [`${ARTICLE}.create`] }] }, 'auth.apiTokens[0].permissions only applies'],
    ['a malformed action', { public: { actions: ['article.find'] } }, 'auth.public.actions[0]'],
    ['an unknown content type', { public: { actions: ['api::articles.article.find'] } }, 'auth.public.actions[0] names an unknown content type: api::articles.article'],
    ['an unknown action', { public: { actions: [`${ARTICLE}.list`] } }, 'auth.public.actions[0] "list" is not one of'],
    ['a bad upload action', { apiTokens: [{ name: 'a', type: 'custom', accessKey: 'k', permissions: ['plugin::upload.file.find'] }] }, 'auth.apiTokens[0].permissions[0] must be plugin::upload.content-api'],
    ['public without actions', { public: {} }, "auth.public must have required property 'actions'"],
    ['a bad expiry string', { apiTokens: [{ name: 'a', type: 'read-only', accessKey: 'k', expiresAt: 'soon' }] }, 'auth.apiTokens[0].expiresAt'],
    ['an invalid Date', { apiTokens: [{ name: 'a', type: 'read-only', accessKey: 'k', expiresAt: new Date('x') }] }, 'auth.apiTokens[0].expiresAt must be an ISO date-time'],
    ['an object expiry', { apiTokens: [{ name: 'a', type: 'read-only', accessKey: 'k', expiresAt: {} }] }, 'auth.apiTokens[0].expiresAt must be an ISO date-time'],
    ['a resolve that is not a function', { resolve: 'users' }, 'auth.resolve must be a function'],
    ['an unknown drafts rule', { drafts: 'yes' }, 'auth.drafts must be one of "findDrafts", "strapi"'],
  ])('rejects %s', (_label, options, message) => {
    const err = failure(options);
    expect(err.code).toBe('CR_INVALID_OPTIONS');
    expect(err.message).toContain(`CR_INVALID_OPTIONS: ${message}`);
  });

  it.each<[string, AuthOptions]>([
    ['an empty object', {}],
    ['other plugins\' actions', { public: { actions: ['plugin::users-permissions.user.me'] } }],
    ['upload and findDrafts actions', { public: { actions: ['plugin::upload.content-api.find', `${ARTICLE}.findDrafts`] } }],
    ['an empty permissions list on a read-only token', { apiTokens: [{ name: 'a', type: 'read-only', accessKey: 'k', permissions: [] }] }],
    ['a salt with plain tokens', { salt: 's', apiTokens: [{ name: 'a', type: 'read-only', accessKey: 'k' }] }],
  ])('accepts %s', (_label, options) => {
    expect(() => createAuth(options, registry)).not.toThrow();
  });
});
