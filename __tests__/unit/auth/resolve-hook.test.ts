import type { IncomingMessage } from 'node:http';
import { createAuth } from '../../../lib/auth';
import type { AuthOptions } from '../../../lib/auth';
import { UnauthorizedError } from '../../../lib/errors';
import { ARTICLE, AUTHOR, PUBLIC_ACTIONS, READ_KEY, registry, request } from './fixtures';

/** A host app's own users: `Bearer jwt-<name>` or an `x-session` header. */
async function resolve(req: IncomingMessage) {
  const session = req.headers['x-session'];
  if (session === 'editor') return { actions: [`${ARTICLE}.create`, `${ARTICLE}.update`], subject: 'user:editor' };
  if (session === 'nobody') return { actions: [] };
  if (session === 'editor-2') return { actions: [`${ARTICLE}.update`, `${ARTICLE}.create`, `${ARTICLE}.update`], subject: 'user:editor-2' };
  if (req.headers.authorization === 'Bearer jwt-ann') return { actions: [`${AUTHOR}.find`], subject: 'user:ann' };
  return null;
}

const options: AuthOptions = {
  apiTokens: [{ name: 'read', type: 'read-only', accessKey: READ_KEY }],
  public: { actions: PUBLIC_ACTIONS },
  resolve,
};
const withHeaders = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('the resolve hook', () => {
  const auth = createAuth(options, registry);

  it('its actions replace the Public role for a recognised caller', async () => {
    const ability = await auth.authenticate(withHeaders({ 'x-session': 'editor' }));
    expect(ability.subject).toBe('user:editor');
    expect(ability.can(`${ARTICLE}.create`)).toBe(true);
    expect(ability.can(`${ARTICLE}.find`)).toBe(false);
  });

  it('callers with the same actions share one scope (what parsed queries are kept per), each with its subject', async () => {
    const one = await auth.authenticate(withHeaders({ 'x-session': 'editor' }));
    const again = await auth.authenticate(withHeaders({ 'x-session': 'editor' }));
    const other = await auth.authenticate(withHeaders({ 'x-session': 'editor-2' }));
    const nobody = await auth.authenticate(withHeaders({ 'x-session': 'nobody' }));
    expect(again).not.toBe(one);
    expect(one.scope).toBeDefined();
    expect(again.scope).toBe(one.scope);
    expect(other.scope).toBe(one.scope);
    expect(other.subject).toBe('user:editor-2');
    expect(nobody.scope).not.toBe(one.scope);
    const reader = await auth.authenticate(withHeaders({ authorization: `Bearer ${READ_KEY}` }));
    expect(reader.scope).toBeUndefined();
  });

  it('the subject defaults to "user"', async () => {
    const ability = await auth.authenticate(withHeaders({ 'x-session': 'nobody' }));
    expect(ability.subject).toBe('user');
    expect(ability.can(`${ARTICLE}.find`)).toBe(false);
  });

  it('null falls back to the Public role', async () => {
    const ability = await auth.authenticate(request());
    expect(ability.subject).toBe('public');
    expect(ability.can(`${ARTICLE}.find`)).toBe(true);
  });

  it('recognises a bearer token that is not an API token (the app JWT)', async () => {
    const ability = await auth.authenticate(request('Bearer jwt-ann'));
    expect(ability.subject).toBe('user:ann');
    expect(ability.canFind(AUTHOR)).toBe(true);
  });

  it('a bearer token neither side knows is still a 401', async () => {
    await expect(auth.authenticate(request('Bearer jwt-bob'))).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('is not asked when an API token matches', async () => {
    const spy = jest.fn(resolve);
    const ability = await createAuth({ ...options, resolve: spy }, registry).authenticate(request(`Bearer ${READ_KEY}`));
    expect(ability.subject).toBe('api-token:read');
    expect(spy).not.toHaveBeenCalled();
  });

  it('its rejection reaches the caller (e.g. its own UnauthorizedError)', async () => {
    const failing = createAuth({ resolve: async () => Promise.reject(new UnauthorizedError('Session expired')) }, registry);
    await expect(failing.authenticate(request())).rejects.toMatchObject({ status: 401, message: 'Session expired' });
  });

  it('an answer without an actions array is a host-app bug (TypeError)', async () => {
    const broken = createAuth({ resolve: async () => ({ actions: 'all' }) as unknown as { actions: string[] } }, registry);
    await expect(broken.authenticate(request())).rejects.toBeInstanceOf(TypeError);
  });
});
