import express, { type Router } from 'express';
import request from 'supertest';
import { prefixRoutes } from '../../../lib/http/prefix-routes';

/** An app with `register`'s routes through prefixRoutes, then a catch-all that says which requests fell through. */
function appWith(register: (router: Router) => void, seen: string[]) {
  const app = express();
  const api = express.Router();
  api.use((req, _res, next) => {
    seen.length = 0;
    next();
  });
  api.use(prefixRoutes((router) => {
    register(router);
    // Counts the requests that reach the routes' own router (this layer is added last: it runs when none answered).
    router.use((req, _res, next) => {
      seen.push(req.path);
      next();
    });
  }));
  api.use((req, res) => {
    res.json({ fellThrough: req.path, baseUrl: req.baseUrl });
  });
  app.use('/api', api);
  return app;
}

const routes = (router: Router): void => {
  router.route('/auth/local').post((req, res) => {
    res.json({ route: 'login', url: req.url, baseUrl: req.baseUrl });
  });
  router.get('/users/:id', (req, res) => {
    res.json({ route: 'user', id: req.params.id });
  });
};

describe('prefixRoutes', () => {
  test('the routes answer as they would in the parent router: same url and baseUrl, params, any case, trailing slash', async () => {
    const app = appWith(routes, []);
    expect((await request(app).post('/api/auth/local')).body).toEqual({ route: 'login', url: '/auth/local', baseUrl: '/api' });
    expect((await request(app).post('/api/AUTH/Local/')).body).toMatchObject({ route: 'login' });
    expect((await request(app).get('/api/users/7?x=1')).body).toEqual({ route: 'user', id: '7' });
  });

  test('a request to another first segment never enters the routes; one with a known segment and no route falls through', async () => {
    const seen: string[] = [];
    // With a middleware in the router, every request goes through it (no prefix is known): the fallback.
    const app = appWith(routes, seen);
    expect((await request(app).get('/api/articles')).body).toEqual({ fellThrough: '/articles', baseUrl: '/api' });
    expect(seen).toEqual(['/articles']);

    const seenByPrefix: string[] = [];
    const prefixed = express();
    const api = express.Router();
    api.use(prefixRoutes(routes));
    api.use((req, res) => {
      seenByPrefix.push(req.path);
      res.json({ fellThrough: req.path });
    });
    prefixed.use('/api', api);
    expect((await request(prefixed).get('/api/articles')).body).toEqual({ fellThrough: '/articles' });
    expect((await request(prefixed).get('/api/users')).body).toEqual({ fellThrough: '/users' });
    expect((await request(prefixed).get('/api/auth/local')).body).toEqual({ fellThrough: '/auth/local' });
    expect((await request(prefixed).get('/api/%61uth/local')).body).toEqual({ fellThrough: '/%61uth/local' });
    expect((await request(prefixed).get('/api/users/9')).body).toEqual({ route: 'user', id: '9' });
  });

  test('an error of a route reaches the parent error handler', async () => {
    const app = express();
    const api = express.Router();
    api.use(prefixRoutes((router) => router.get('/auth/fail', () => {
      throw new Error('boom');
    })));
    api.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(418).json({ message: err.message });
    });
    app.use('/api', api);
    const res = await request(app).get('/api/auth/fail');
    expect(res.status).toBe(418);
    expect(res.body).toEqual({ message: 'boom' });
  });

  test('a router mounted at a literal path is entered by the requests of its first segment only, and sees them as mounted', async () => {
    const entered: string[] = [];
    const uploads = express.Router();
    uploads.get('/files/:id', (req, res) => {
      res.json({ id: req.params.id, url: req.url, baseUrl: req.baseUrl, originalUrl: req.originalUrl });
    });
    const app = express();
    const api = express.Router();
    api.use(prefixRoutes((router) => {
      router.use('/upload', uploads);
      // Counts the requests that enter the routes' own router.
      const routes = router as unknown as { handle: (req: express.Request, res: express.Response, next: express.NextFunction) => void };
      const handle = routes.handle.bind(routes);
      routes.handle = (req, res, next) => {
        entered.push(req.originalUrl);
        handle(req, res, next);
      };
    }));
    api.use((req, res) => {
      res.json({ fellThrough: req.path, url: req.url, baseUrl: req.baseUrl });
    });
    app.use('/api', api);
    expect((await request(app).get('/api/upload/files/3?x=1')).body).toEqual({ id: '3', url: '/files/3?x=1', baseUrl: '/api/upload', originalUrl: '/api/upload/files/3?x=1' });
    expect((await request(app).get('/api/UPLOAD/files/4')).body).toMatchObject({ id: '4', baseUrl: '/api/UPLOAD' });
    // Not found under the mount: the request leaves it as it came (url and baseUrl restored).
    expect((await request(app).get('/api/upload/other')).body).toEqual({ fellThrough: '/upload/other', url: '/upload/other', baseUrl: '/api' });
    expect(entered).toEqual(['/api/upload/files/3?x=1', '/api/UPLOAD/files/4', '/api/upload/other']);
    entered.length = 0;
    for (const path of ['/articles', '/uploads/x', '/upload.json', '/%75pload/files/1']) {
      expect((await request(app).get(`/api${path}`)).body).toMatchObject({ fellThrough: path });
    }
    expect(entered).toEqual([]);
  });
});
