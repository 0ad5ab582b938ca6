import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import request from 'supertest';
import { createAuth } from '../../../lib/auth';
import type { AuthOptions } from '../../../lib/auth';
import { ApplicationError, ForbiddenError } from '../../../lib/errors';
import { authMiddleware } from '../../../lib/http/auth-middleware';
import { getAbility } from '../../../lib/http/request-context';
import { ARTICLE, FULL_KEY, PUBLIC_ACTIONS, READ_KEY, registry } from './fixtures';

/** A tiny app: the middleware, one guarded route per action, and Strapi's error envelope. */
function app(options: AuthOptions | undefined) {
  const a = express();
  a.use(authMiddleware(createAuth(options, registry)));
  const guarded = (action: string) => (req: Request, res: Response) => {
    const ability = getAbility(req);
    if (!ability.can(action)) throw new ForbiddenError();
    res.json({ data: { subject: ability.subject, drafts: ability.canReadDrafts(ARTICLE) } });
  };
  a.get('/api/articles', guarded(`${ARTICLE}.find`));
  a.post('/api/articles', guarded(`${ARTICLE}.create`));
  a.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (!(err instanceof ApplicationError)) return void res.status(500).json({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error' } });
    res.status(err.status).json({ data: null, error: { status: err.status, name: err.name, message: err.message, details: err.details } });
  });
  return a;
}

const options: AuthOptions = {
  apiTokens: [
    { name: 'full', type: 'full-access', accessKey: FULL_KEY },
    { name: 'read', type: 'read-only', accessKey: READ_KEY },
  ],
  public: { actions: PUBLIC_ACTIONS },
};

describe('authMiddleware over HTTP', () => {
  const server = app(options);

  it.each<[string, string, string | undefined, number, string | undefined]>([
    ['GET', '/api/articles', undefined, 200, 'public'],
    ['GET', '/api/articles', 'Token abc', 200, 'public'],
    ['GET', '/api/articles', 'Bearer ', 200, 'public'],
    ['GET', '/api/articles', `Bearer ${READ_KEY}`, 200, 'api-token:read'],
    ['POST', '/api/articles', undefined, 403, undefined],
    ['POST', '/api/articles', `Bearer ${READ_KEY}`, 403, undefined],
    ['POST', '/api/articles', `Bearer ${FULL_KEY}`, 200, 'api-token:full'],
  ])('%s %s with %j -> %i', async (method, path, authorization, status, subject) => {
    const req = method === 'GET' ? request(server).get(path) : request(server).post(path).send({ data: {} });
    const res = await (authorization === undefined ? req : req.set('Authorization', authorization));
    expect(res.status).toBe(status);
    if (subject) expect(res.body.data.subject).toBe(subject);
    else expect(res.body.error).toEqual({ status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} });
  });

  it('an invalid token is a 401 even on a public route', async () => {
    const res = await request(server).get('/api/articles').set('Authorization', 'Bearer bad');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      data: null,
      error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} },
    });
  });

  it('without the auth option every route is closed: 403 without a token, 401 with one', async () => {
    const closed = app(undefined);
    for (const res of [await request(closed).get('/api/articles'), await request(closed).post('/api/articles').send({})]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual({ status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} });
    }
    expect((await request(closed).get('/api/articles').set('Authorization', 'Bearer anything')).status).toBe(401);
  });

  it("with public: 'all' every route is open to callers without a token; an unknown token is still a 401", async () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const open = app({ public: 'all' });
    warn.mockRestore();
    const res = await request(open).post('/api/articles').send({});
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ subject: 'public', drafts: true });
    expect((await request(open).get('/api/articles').set('Authorization', 'Bearer anything')).status).toBe(401);
  });

  it('a failing resolve hook reaches next(err) (the app answers 500)', async () => {
    const res = await request(app({ resolve: async () => Promise.reject(new Error('db down')) })).get('/api/articles');
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain('db down');
  });
});

describe('getAbility without the auth middleware', () => {
  it('fails closed: a route reached without authentication may do nothing', async () => {
    const bare = express();
    bare.get('/api/articles', (req, res) => {
      const ability = getAbility(req);
      res.json({ subject: ability.subject, can: [ability.can(`${ARTICLE}.find`), ability.canFind(ARTICLE), ability.canReadDrafts(ARTICLE)] });
    });
    expect((await request(bare).get('/api/articles')).body).toEqual({ subject: 'none', can: [false, false, false] });
  });
});
