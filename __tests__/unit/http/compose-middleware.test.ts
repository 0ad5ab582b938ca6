import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import request from 'supertest';
import { composeMiddleware } from '../../../lib/http/compose-middleware';

/** Middleware that do what the query string says (`?a=next&b=throw`), and note that they ran in `res.locals.seen`. */
const step = (name: string): RequestHandler => (req, res, next) => {
  (res.locals.seen ??= []).push(name);
  switch (req.query[name]) {
    case 'answer':
      res.json({ answeredBy: name, seen: res.locals.seen });
      return;
    case 'error':
      return next(new Error(`error of ${name}`));
    case 'route':
      return next('route');
    case 'router':
      return next('router');
    case 'throw':
      throw new Error(`thrown by ${name}`);
    case 'reject':
      return Promise.reject(new Error(`rejected by ${name}`)) as unknown as void;
    case 'reject-falsy':
      return Promise.reject(null) as unknown as void; // eslint-disable-line prefer-promise-reject-errors
    case 'async':
      return Promise.resolve().then(() => next()) as unknown as void;
    default:
      return next();
  }
};

/** `mount` adds a, b and c to a router mounted at /api, followed by an answer, an error handler, and an app-level 404. */
function appWith(mount: (api: express.Router, handlers: RequestHandler[]) => void): express.Express {
  const app = express();
  const api = express.Router();
  mount(api, [step('a'), step('b'), step('c')]);
  api.use((_req, res) => {
    res.json({ answeredBy: 'end', seen: res.locals.seen });
  });
  api.use((err: Error, _req: Request, res: Response, _next: NextFunction) => {
    res.status(500).json({ error: err.message, seen: res.locals.seen });
  });
  app.use('/api', api);
  app.use((_req, res) => {
    res.status(404).json({ leftTheRouter: true, seen: res.locals.seen });
  });
  return app;
}

const CASES = [
  '', 'a=answer', 'b=answer', 'c=answer', 'a=error', 'b=error', 'c=error', 'a=route', 'b=route&c=answer', 'a=router', 'b=router', 'c=router',
  'a=throw', 'b=throw', 'c=throw', 'a=reject', 'c=reject', 'b=reject-falsy', 'a=async&b=async&c=async', 'a=async&b=error',
];

describe('composeMiddleware', () => {
  test('runs the middleware as the router runs them as layers of their own', async () => {
    const layers = appWith((api, handlers) => handlers.forEach((h) => api.use(h)));
    const composed = appWith((api, handlers) => api.use(composeMiddleware(handlers)));
    for (const query of CASES) {
      const [a, b] = await Promise.all([layers, composed].map((app) => request(app).get(`/api/x?${query}`)));
      expect({ query, status: b!.status, body: b!.body }).toEqual({ query, status: a!.status, body: a!.body });
    }
    // What the cases check, spelled out for a few of them.
    expect((await request(composed).get('/api/x?b=error')).body).toEqual({ error: 'error of b', seen: ['a', 'b'] });
    expect((await request(composed).get('/api/x?b=router')).body).toEqual({ leftTheRouter: true, seen: ['a', 'b'] });
    expect((await request(composed).get('/api/x?b=reject-falsy')).body).toEqual({ error: 'Rejected promise', seen: ['a', 'b'] });
  });

  test('one or no middleware; an error handler is refused', async () => {
    const one = step('a');
    expect(composeMiddleware([one])).toBe(one);
    const none = appWith((api) => api.use(composeMiddleware([])));
    expect((await request(none).get('/api/x')).body).toEqual({ answeredBy: 'end' });
    expect(() => composeMiddleware([(_err: unknown, _req: Request, _res: Response, next: NextFunction) => next()] as unknown as RequestHandler[])).toThrow(TypeError);
  });
});
