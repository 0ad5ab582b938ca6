import { tracingChannel } from 'node:diagnostics_channel';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import request from 'supertest';
import { firstSegment, routeTable } from '../../../lib/http/route-table';

/** What a route answers: which route, its params, the url it saw, and the route's path (`req.route`). */
const answer = (name: string) => (req: Request, res: Response) => {
  res.json({ name, method: req.method, params: { ...req.params }, url: req.url, baseUrl: req.baseUrl, route: (req.route as { path?: string } | undefined)?.path });
};
const notAllowed = (req: Request, res: Response) => {
  res.set('Allow', 'GET').status(405).type('text/plain').send(`405 ${req.method}`);
};

/** Routes shaped as the content router's, with the cases the router's own matching decides. */
function register(router: Router): void {
  router.route('/i18n/locales').get(answer('locales')).all(notAllowed);
  router.route('/articles/:documentId/actions/unpublish').post(answer('unpublish')).all(notAllowed);
  router.route('/about').get(answer('about')).put(answer('about-put')).all(notAllowed);
  router.get('/:kind/by-kind', answer('by-kind')); // not literal: a candidate for every request, in its place
  router.route('/articles').get(answer('find')).post(answer('create')).all(notAllowed);
  router.get('/articles/:documentId', (req, _res, next) => (req.params.documentId === 'skip' ? next() : req.params.documentId === 'route' ? next('route') : next()));
  router.get('/articles/:documentId', (req, res, next) => (req.params.documentId === 'fail' ? next(new Error('failed')) : answer('findOne')(req, res)));
  router.get('/articles/:documentId', answer('after-skip'));
  router.get('/articles/:documentId/async', async () => {
    await Promise.resolve();
    throw new Error('async failure');
  });
  router.get('/articles/:documentId/throws', () => {
    throw new Error('sync failure');
  });
  router.get('/articles/:documentId/two', (req, _res, next) => (req.query.first === 'answer' ? answer('first')(req, _res) : next()), answer('second')); // two handlers in one route
  router.get('/articles/:documentId/leave', (_req, _res, next) => next('router')); // leaves the API router
  router.get('/articles/:documentId/falsy', () => Promise.reject(0)); // eslint-disable-line prefer-promise-reject-errors
  router.get('/articles/:documentId/handled', (_req: Request, _res: Response, next: NextFunction) => next(new Error('to the route\'s error handler')), (err: Error, _req: Request, res: Response, _next: NextFunction) => {
    res.status(409).json({ handled: err.message }); // an error handler in the route: run by Express's own dispatch
  });
  router.route('/articles/:documentId').put(answer('update')).delete(answer('delete')).all(notAllowed);
  router.get('/i18n', answer('i18n')); // after /i18n/locales: it does not shadow it
  router.post('/posts', answer('posts-post-only')); // no `all`: other methods fall through
}

/** `mount` adds the routes to the API router (themselves, or a route table), then a 404 and an error handler. */
function appWith(mount: (api: Router) => void): express.Express {
  const app = express();
  const api = express.Router();
  mount(api);
  api.use((req, res) => {
    res.status(404).json({ fellThrough: req.path, params: { ...req.params }, baseUrl: req.baseUrl });
  });
  api.use((err: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(err.status ?? 500).json({ error: err.message });
  });
  app.use('/api', api);
  app.use((req, res) => {
    res.status(404).json({ leftTheRouter: req.path });
  });
  return app;
}

const PATHS = [
  '/articles', '/Articles', '/ARTICLES/', '/articles//', '/articles?x=1&y', '/articles.json', '/%61rticles', '/articles/abc', '/articles/ABC/',
  '/articles/a%2Fb', '/articles/%E0%A4%A', '/articles/abc/actions/unpublish', '/articles/abc/Actions/UNPUBLISH/', '/articles/skip', '/articles/route',
  '/articles/fail', '/articles/x/async', '/articles/x/throws', '/articles/x/y/z', '/about', '/about/', '/About/x', '/i18n/locales', '/i18n', '/I18N/',
  '/i18n/other', '/articles/by-kind', '/anything/by-kind', '/%E0/by-kind', '/posts', '/', '', '/nothing', '//articles', '/articles/%20',
  '/articles/x/two', '/articles/x/two?first=answer', '/articles/x/leave', '/articles/x/falsy', '/articles/x/handled',
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'] as const;

describe('routeTable', () => {
  test('answers every request as the same routes in the router itself do (paths, case, slashes, params, methods, errors)', async () => {
    const plain = appWith(register);
    const table = appWith((api) => api.use(routeTable(register)));
    const differences: string[] = [];
    for (const path of PATHS) {
      for (const method of METHODS) {
        const url = `/api${path}`;
        const [a, b] = await Promise.all([plain, table].map((app) => request(app)[method.toLowerCase() as 'get'](url)));
        const view = (r: request.Response) => ({ status: r.status, text: r.text, type: r.headers['content-type'], allow: r.headers.allow });
        if (JSON.stringify(view(a!)) !== JSON.stringify(view(b!))) differences.push(`${method} ${url}: ${JSON.stringify(view(a!))} vs ${JSON.stringify(view(b!))}`);
      }
    }
    expect(differences).toEqual([]);
  });

  test('a request is matched against the routes of its first path segment only', async () => {
    const tested: string[] = [];
    const app = appWith((api) =>
      api.use(routeTable((router) => {
        register(router);
        for (const layer of router.stack as unknown as { route: { path: string }; match: (path: string) => unknown }[]) {
          const match = layer.match.bind(layer);
          layer.match = (path: string) => {
            tested.push(layer.route.path);
            return match(path);
          };
        }
      })),
    );
    const res = await request(app).get('/api/Articles');
    expect(res.body).toMatchObject({ name: 'find', route: '/articles' });
    // The non-literal route in its place, then the first route of the segment that answers; no other segment's.
    expect(tested).toEqual(['/articles/:documentId/actions/unpublish', '/:kind/by-kind', '/articles']);
    tested.length = 0;
    expect((await request(app).get('/api/nowhere')).status).toBe(404);
    expect(tested).toEqual(['/:kind/by-kind']);
  });

  test('with a middleware among the routes, the plain router (every request through it)', async () => {
    const seen: string[] = [];
    const app = appWith((api) =>
      api.use(routeTable((router) => {
        router.use((req, _res, next) => {
          seen.push(req.path);
          next();
        });
        router.get('/articles', answer('find'));
      })),
    );
    expect((await request(app).get('/api/other')).status).toBe(404);
    expect((await request(app).get('/api/articles')).body).toMatchObject({ name: 'find' });
    expect(seen).toEqual(['/other', '/articles']);
  });

  test('while something traces the router (diagnostics_channel), the routes run through Express, which traces each handler', async () => {
    const traced: string[] = [];
    const onStart = (ctx: unknown): void => {
      traced.push((ctx as { handler?: { name?: string } }).handler?.name ?? '');
    };
    const channel = tracingChannel('express.router.request');
    const tracedFind = (_req: Request, res: Response): void => {
      res.json({ traced: true });
    };
    const app = appWith((api) => api.use(routeTable((router) => router.get('/articles', tracedFind))));
    expect((await request(app).get('/api/articles')).body).toEqual({ traced: true });
    expect(traced).toEqual([]);
    channel.start.subscribe(onStart);
    try {
      expect((await request(app).get('/api/articles')).body).toEqual({ traced: true });
    } finally {
      channel.start.unsubscribe(onStart);
    }
    expect(traced).toContain('tracedFind');
  });

  test('untraced, a route\'s handlers are run by the table, without its Express layer', async () => {
    let throughExpress = 0;
    const app = appWith((api) =>
      api.use(routeTable((router) => {
        register(router);
        for (const layer of router.stack as unknown as { handleRequest: (...args: unknown[]) => void }[]) {
          const handleRequest = layer.handleRequest.bind(layer);
          layer.handleRequest = (...args: unknown[]) => {
            throughExpress++;
            handleRequest(...args);
          };
        }
      })),
    );
    expect((await request(app).get('/api/articles/abc')).body).toMatchObject({ name: 'findOne', params: { documentId: 'abc' }, route: '/articles/:documentId' });
    expect(throughExpress).toBe(0);
    expect((await request(app).get('/api/articles/x/handled')).status).toBe(409); // a route with an error handler: Express's dispatch
    expect(throughExpress).toBe(1);
  });

  test('with router 2.0 to 2.2 (Express 5.0, 5.1), whose layer.match answers true and keeps params on the layer', async () => {
    const app = appWith((api) =>
      api.use(routeTable((router) => {
        register(router);
        for (const layer of router.stack as unknown as { match: (path: string) => unknown; params?: unknown }[]) {
          const match = layer.match.bind(layer);
          layer.match = (path: string) => {
            const found = match(path) as { params: unknown } | false;
            if (!found) return false;
            layer.params = found.params;
            return true;
          };
        }
      })),
    );
    expect((await request(app).get('/api/articles/abc')).body).toMatchObject({ name: 'findOne', params: { documentId: 'abc' }, route: '/articles/:documentId' });
    expect((await request(app).get('/api/i18n/locales')).body).toMatchObject({ name: 'locales', params: {} });
  });

  test('firstSegment: literal ASCII first segments only', () => {
    expect(firstSegment('/Articles/:id')).toBe('articles');
    expect(firstSegment('/openapi.json')).toBe('openapi.json');
    expect(firstSegment('/:kind/x')).toBeNull();
    expect(firstSegment('/a{b}')).toBeNull();
    expect(firstSegment('/')).toBeNull();
    expect(firstSegment('/caf\u00e9')).toBeNull(); // Express's case folding of non-ASCII letters is not toLowerCase's
    expect(firstSegment(/articles/)).toBeNull();
  });
});
