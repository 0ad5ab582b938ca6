import { createAuth, hashAccessKey, OPEN_ABILITY } from '../../../lib/auth';
import type { Ability, AuthOptions } from '../../../lib/auth';
import { UnauthorizedError } from '../../../lib/errors';
import { ARTICLE, AUTHOR, FILE, FULL_KEY, GLOBAL, PUBLIC_ACTIONS, READ_KEY, UPLOAD, registry, request } from './fixtures';

const CUSTOM_KEY = 'custom-token-value';
const CUSTOM_PERMISSIONS = [`${AUTHOR}.find`, `${ARTICLE}.create`, `${UPLOAD}.upload`];

const options: AuthOptions = {
  apiTokens: [
    { name: 'full', type: 'full-access', accessKey: FULL_KEY },
    { name: 'read', type: 'read-only', accessKey: READ_KEY },
    { name: 'custom', type: 'custom', accessKey: CUSTOM_KEY, permissions: CUSTOM_PERMISSIONS },
  ],
  public: { actions: PUBLIC_ACTIONS },
};

const CONTENT_ACTIONS = ['find', 'findOne', 'create', 'update', 'delete'];
const ALL_ACTIONS = [
  ...[ARTICLE, AUTHOR, GLOBAL].flatMap((uid) => CONTENT_ACTIONS.map((a) => `${uid}.${a}`)),
  ...['find', 'findOne', 'upload', 'destroy'].map((a) => `${UPLOAD}.${a}`),
];

/** Who may do what: the expected answers, written out per caller. */
const EXPECTED: Record<string, (action: string) => boolean> = {
  public: (a) => PUBLIC_ACTIONS.includes(a),
  full: () => true,
  read: (a) => /\.(find|findOne)$/.test(a),
  custom: (a) => CUSTOM_PERMISSIONS.includes(a),
};
const HEADERS: Record<string, string | undefined> = {
  public: undefined,
  full: `Bearer ${FULL_KEY}`,
  read: `Bearer ${READ_KEY}`,
  custom: `Bearer ${CUSTOM_KEY}`,
};

describe('createAuth: the caller x action matrix', () => {
  const auth = createAuth(options, registry);
  const cases = Object.keys(EXPECTED).flatMap((caller) => ALL_ACTIONS.map((action) => [caller, action] as const));

  it.each(cases)('%s may %s as expected', async (caller, action) => {
    const ability = await auth.authenticate(request(HEADERS[caller]));
    expect(ability.can(action)).toBe(EXPECTED[caller]!(action));
  });

  it.each([
    ['public', 'public'],
    ['full', 'api-token:full'],
    ['read', 'api-token:read'],
    ['custom', 'api-token:custom'],
  ])('%s has subject %s', async (caller, subject) => {
    expect((await auth.authenticate(request(HEADERS[caller]))).subject).toBe(subject);
  });

});

describe('canFind', () => {
  const auth = createAuth(options, registry);
  it.each<[string, string, boolean]>([
    ['public', ARTICLE, true],
    ['public', AUTHOR, false],
    ['public', FILE, false],
    ['read', AUTHOR, true],
    ['read', FILE, true],
    ['custom', AUTHOR, true],
    ['custom', ARTICLE, false],
    ['custom', FILE, false],
  ])('%s canFind(%s) = %s', async (caller, uid, expected) => {
    expect((await auth.authenticate(request(HEADERS[caller]))).canFind(uid)).toBe(expected);
  });

  it('maps media to the upload plugin find action', async () => {
    const custom = createAuth({ apiTokens: [{ name: 'm', type: 'custom', accessKey: 'm', permissions: [`${UPLOAD}.find`] }] }, registry);
    const ability = await custom.authenticate(request('Bearer m'));
    expect(ability.canFind(FILE)).toBe(true);
    expect(ability.canFind(ARTICLE)).toBe(false);
  });
});

describe('bad and malformed credentials', () => {
  const auth = createAuth(options, registry);

  it.each(['Bearer nope', `Bearer ${FULL_KEY}x`, `Bearer ${READ_KEY.toUpperCase()}`])('%s is a 401', async (header) => {
    const err = await auth.authenticate(request(header)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(err).toMatchObject({ status: 401, message: 'Missing or invalid credentials', details: {} });
  });

  it.each(['Token abc', 'Bearer ', 'Bearer', `Basic ${FULL_KEY}`, `Bearer ${FULL_KEY} extra`, ''])(
    'malformed %j is treated as no token (public)',
    async (header) => {
      expect((await auth.authenticate(request(header))).subject).toBe('public');
    },
  );
});

describe('expiry', () => {
  const at = Date.parse('2030-01-01T00:00:00.000Z');
  const build = (now: number) =>
    createAuth(
      {
        apiTokens: [
          { name: 'iso', type: 'read-only', accessKey: 'iso', expiresAt: '2030-01-01T00:00:00.000Z' },
          { name: 'date', type: 'read-only', accessKey: 'date', expiresAt: new Date(at) },
          { name: 'never', type: 'read-only', accessKey: 'never', expiresAt: null },
        ],
      },
      registry,
      { now: () => now },
    );

  it.each(['iso', 'date', 'never'])('%s works before its expiry', async (key) => {
    expect((await build(at - 1).authenticate(request(`Bearer ${key}`))).subject).toBe(`api-token:${key}`);
  });

  it.each(['iso', 'date'])('%s is a 401 from its expiry on', async (key) => {
    await expect(build(at).authenticate(request(`Bearer ${key}`))).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(build(at + 1).authenticate(request(`Bearer ${key}`))).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('a token without expiry never expires', async () => {
    expect((await build(Number.MAX_SAFE_INTEGER).authenticate(request('Bearer never'))).subject).toBe('api-token:never');
  });
});

describe('hash-only tokens', () => {
  const salt = 'strapi-api-token-salt';
  const auth = createAuth(
    {
      salt,
      apiTokens: [
        { name: 'hashed', type: 'read-only', hash: hashAccessKey(READ_KEY, salt) },
        { name: 'upper', type: 'full-access', hash: hashAccessKey(FULL_KEY, salt).toUpperCase() },
        { name: 'both', type: 'custom', accessKey: 'both', hash: hashAccessKey('both', salt), permissions: [] },
      ],
    },
    registry,
  );

  it.each([
    [READ_KEY, 'api-token:hashed'],
    [FULL_KEY, 'api-token:upper'],
    ['both', 'api-token:both'],
  ])('accepts the value whose hash is configured', async (key, subject) => {
    expect((await auth.authenticate(request(`Bearer ${key}`))).subject).toBe(subject);
  });

  it('rejects the hash itself presented as a token', async () => {
    await expect(auth.authenticate(request(`Bearer ${hashAccessKey(READ_KEY, salt)}`))).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('a hash made with another salt does not match', async () => {
    const other = createAuth({ salt: 'other', apiTokens: [{ name: 'x', type: 'read-only', hash: hashAccessKey(READ_KEY, salt) }] }, registry);
    await expect(other.authenticate(request(`Bearer ${READ_KEY}`))).rejects.toBeInstanceOf(UnauthorizedError);
  });
});

describe('no auth option: private by default (spec section 5)', () => {
  it('allows nothing, to anyone without a token', async () => {
    const auth = createAuth(undefined, registry);
    const ability = await auth.authenticate(request());
    expect(ability.subject).toBe('public');
    expect(ALL_ACTIONS.filter((a) => ability.can(a))).toEqual([]);
  });

  it('answers 401 to any bearer token (none is configured)', async () => {
    await expect(createAuth(undefined, registry).authenticate(request('Bearer whatever'))).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('an empty auth option closes everything too', async () => {
    const ability = await createAuth({}, registry).authenticate(request());
    expect(ALL_ACTIONS.some((a) => ability.can(a))).toBe(false);
  });
});

describe("public: 'all'", () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('grants every action, drafts included, to requests without a token', async () => {
    const ability = await createAuth({ public: 'all' }, registry).authenticate(request());
    expect(ability.subject).toBe('public');
    expect(ALL_ACTIONS.filter((a) => !ability.can(a))).toEqual([]);
    expect(ability.canReadDrafts(ARTICLE)).toBe(true);
  });

  it('under the default drafts rule too: findDrafts is an action like the others', async () => {
    const ability = await createAuth({ public: 'all', drafts: 'findDrafts' }, registry).authenticate(request());
    expect(ability.canReadDrafts(ARTICLE)).toBe(true);
  });

  it('keeps tokens working: a configured token gets its own ability, an unknown one a 401', async () => {
    const auth = createAuth({ public: 'all', apiTokens: [{ name: 'read', type: 'read-only', accessKey: READ_KEY }] }, registry);
    const token = await auth.authenticate(request(`Bearer ${READ_KEY}`));
    expect([token.subject, token.can(`${ARTICLE}.create`)]).toEqual(['api-token:read', false]);
    await expect(auth.authenticate(request('Bearer whatever'))).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('emits one CR_AUTH_OPEN warning per authenticator, none per request', async () => {
    const auth = createAuth({ public: 'all' }, registry);
    await auth.authenticate(request());
    await auth.authenticate(request());
    expect(warn.mock.calls).toEqual([[expect.stringContaining('deletes and uploads included'), { type: 'ContentRouterWarning', code: 'CR_AUTH_OPEN' }]]);
  });

  it.each<[string, unknown, string]>([
    ['a misspelling', { public: 'al' }, "auth.public must be { actions: string[] } or 'all'"],
    ['another word', { public: 'everything' }, "auth.public must be { actions: string[] } or 'all'"],
    ['a boolean', { public: true }, "auth.public must be { actions: string[] } or 'all'"],
    ['all as an action list', { public: { actions: 'all' } }, 'auth.public.actions must be array'],
  ])('refuses %s (CR_INVALID_OPTIONS), with no warning', (_label, options, message) => {
    expect(() => createAuth(options as AuthOptions, registry)).toThrow(message);
    expect(warn).not.toHaveBeenCalled();
  });

  it('private options emit no warning', () => {
    createAuth(undefined, registry);
    createAuth({ public: { actions: [] } }, registry);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('drafts', () => {
  const draftsOptions = (drafts: AuthOptions['drafts']): AuthOptions => ({
    ...options,
    ...(drafts ? { drafts } : {}),
    public: { actions: [...PUBLIC_ACTIONS, `${AUTHOR}.findOne`] },
    apiTokens: [...options.apiTokens!, { name: 'drafts', type: 'custom', accessKey: 'drafts', permissions: [`${ARTICLE}.find`, `${ARTICLE}.findDrafts`] }],
  });
  const read = async (drafts: AuthOptions['drafts'], header: string | undefined): Promise<Ability> =>
    createAuth(draftsOptions(drafts), registry).authenticate(request(header));

  it.each<[string | undefined, string, boolean]>([
    [undefined, ARTICLE, true],
    [undefined, AUTHOR, true],
    [undefined, GLOBAL, true],
    [`Bearer ${READ_KEY}`, AUTHOR, true],
    [`Bearer ${CUSTOM_KEY}`, ARTICLE, false],
  ])("drafts: 'strapi': anyone who may find or findOne reads drafts (%s, %s -> %s)", async (header, uid, expected) => {
    expect((await read('strapi', header)).canReadDrafts(uid)).toBe(expected);
  });

  const GRANT_CASES: [string | undefined, string, boolean][] = [
    [undefined, ARTICLE, false],
    [undefined, AUTHOR, false],
    [`Bearer ${READ_KEY}`, ARTICLE, true],
    [`Bearer ${READ_KEY}`, AUTHOR, true],
    [`Bearer ${FULL_KEY}`, ARTICLE, true],
    [`Bearer ${CUSTOM_KEY}`, AUTHOR, false],
    ['Bearer drafts', ARTICLE, true],
    ['Bearer drafts', GLOBAL, false],
  ];
  it.each(GRANT_CASES)('by default it takes findDrafts, which read-only tokens have (%s, %s -> %s)', async (header, uid, expected) => {
    expect((await read(undefined, header)).canReadDrafts(uid)).toBe(expected);
  });
  it.each(GRANT_CASES)("drafts: 'findDrafts' is the default, said out loud (%s, %s -> %s)", async (header, uid, expected) => {
    expect((await read('findDrafts', header)).canReadDrafts(uid)).toBe(expected);
  });

  it('read-only tokens may findDrafts as an action too; the Public role only when listed', async () => {
    expect((await read(undefined, `Bearer ${READ_KEY}`)).can(`${ARTICLE}.findDrafts`)).toBe(true);
    expect((await read(undefined, undefined)).can(`${ARTICLE}.findDrafts`)).toBe(false);
  });

  it.each<[unknown, string]>([
    ['grant', 'auth.drafts must be one of "findDrafts", "strapi"'],
    [true, 'auth.drafts must be one of "findDrafts", "strapi"'],
  ])('refuses drafts: %p (CR_INVALID_OPTIONS)', (drafts, message) => {
    expect(() => createAuth({ drafts } as unknown as AuthOptions, registry)).toThrow(message);
  });

  it('media have no drafts: canReadDrafts follows canFind', async () => {
    expect((await read(undefined, `Bearer ${READ_KEY}`)).canReadDrafts(FILE)).toBe(true);
    expect((await read(undefined, undefined)).canReadDrafts(FILE)).toBe(false);
  });

  it('the open ability reads drafts', () => {
    expect(OPEN_ABILITY.canReadDrafts(ARTICLE)).toBe(true);
  });
});

describe('the API token of a kept-alive connection', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const crypto = require('node:crypto') as typeof import('node:crypto');
  const on = (socket: object, authorization?: string) => ({ ...request(authorization), socket }) as unknown as ReturnType<typeof request>;
  afterEach(() => jest.restoreAllMocks());

  test('is hashed once per connection while it sends the same one; another token or connection is looked up afresh', () => {
    const auth = createAuth(options, registry);
    const hmac = jest.spyOn(crypto, 'createHmac');
    const a = {};
    const b = {};
    expect(auth.authenticateSync!(on(a, `Bearer ${FULL_KEY}`))!.subject).toBe('api-token:full');
    expect(auth.authenticateSync!(on(a, `Bearer ${FULL_KEY}`))!.subject).toBe('api-token:full');
    expect(hmac).toHaveBeenCalledTimes(1);
    expect(auth.authenticateSync!(on(a, `Bearer ${READ_KEY}`))!.subject).toBe('api-token:read');
    expect(auth.authenticateSync!(on(b, `Bearer ${FULL_KEY}`))!.subject).toBe('api-token:full');
    expect(hmac).toHaveBeenCalledTimes(3);
    // An unknown token on a connection that sent a good one: 401, and the good one is still remembered.
    expect(() => auth.authenticateSync!(on(a, `Bearer ${READ_KEY}x`))).toThrow(UnauthorizedError);
    expect(() => auth.authenticateSync!(on(a, `Bearer ${READ_KEY.slice(0, -1)}`))).toThrow(UnauthorizedError);
    expect(auth.authenticateSync!(on(a, `Bearer ${READ_KEY}`))!.subject).toBe('api-token:read');
    expect(hmac).toHaveBeenCalledTimes(5);
    // As many bytes as the remembered one, one of them different (first, last; a two-byte character for two): 401.
    const flip = (key: string, i: number): string => key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
    for (const other of [flip(READ_KEY, 0), flip(READ_KEY, READ_KEY.length - 1), `\u00e9${READ_KEY.slice(2)}`]) {
      expect(Buffer.byteLength(other)).toBe(Buffer.byteLength(READ_KEY));
      expect(() => auth.authenticateSync!(on(a, `Bearer ${other}`))).toThrow(UnauthorizedError);
    }
    expect(auth.authenticateSync!(on(a, `Bearer ${READ_KEY}`))!.subject).toBe('api-token:read');
    expect(hmac).toHaveBeenCalledTimes(8);
  });

  test('expires on its connection as anywhere', () => {
    let now = Date.parse('2029-12-31T23:59:59.000Z');
    const auth = createAuth({ apiTokens: [{ name: 'soon', type: 'read-only', accessKey: 'soon-token', expiresAt: '2030-01-01T00:00:00.000Z' }] }, registry, { now: () => now });
    const socket = {};
    expect(auth.authenticateSync!(on(socket, 'Bearer soon-token'))!.subject).toBe('api-token:soon');
    now += 1000;
    expect(() => auth.authenticateSync!(on(socket, 'Bearer soon-token'))).toThrow(UnauthorizedError);
  });
});
