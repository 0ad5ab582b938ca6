import express from 'express';
import request from 'supertest';
import { createContentRouter, healthCheck, memoryEngine, type ContentRouterOptions, type Engine } from '../../../lib';
import { createLogger } from '../../../lib/errors/logger';
import { httpComponents, httpContentTypes } from '../../fixtures/http-model';
import { slowStartingEngine } from '../../helpers/failing-engine';
import { expectStrapiError } from '../../helpers/http';

/**
 * Strapi answers `/_health` with 204 and `strapi: You are so French!` for load balancers. The router answers
 * it at `/api/_health`, and `healthCheck(router)` at the app's root, reporting the engine: 503 with
 * Retry-After while it starts, after a failed start and while it cannot serve; 204 otherwise. No auth, no leak.
 */
function mount(engine: Engine, options: Partial<ContentRouterOptions> = {}) {
  const router = createContentRouter({
    contentTypes: httpContentTypes, components: httpComponents, engine, upload: false, logger: createLogger(false), ...options,
  });
  const app = express().use('/api', router).all('/_health', healthCheck(router));
  return { router, app };
}

const PATHS = ['/api/_health', '/_health'];

async function expectHealthy(app: express.Express): Promise<void> {
  for (const path of PATHS) {
    for (const method of ['get', 'head', 'post'] as const) {
      const res = await request(app)[method](path).set('Authorization', 'Bearer not-a-token');
      expect({ path, method, status: res.status, strapi: res.headers.strapi, cache: res.headers['cache-control'], body: res.text ?? '' }).toEqual({
        path, method, status: 204, strapi: 'You are so French!', cache: 'no-store', body: '',
      });
    }
  }
}

async function expectDown(app: express.Express, message: string, reason: string): Promise<void> {
  for (const path of PATHS) {
    const res = await request(app).get(path);
    expectStrapiError(res, 503, 'ServiceUnavailableError', message);
    expect(res.body.error.details).toEqual({ reason });
    expect({ retryAfter: res.headers['retry-after'], cache: res.headers['cache-control'], strapi: res.headers.strapi }).toEqual({ retryAfter: '5', cache: 'no-store', strapi: undefined });
  }
}

describe('the health route', () => {
  it('204 with Strapi\'s header once the engine serves, for any method, with no credentials needed nor checked', async () => {
    const { router, app } = mount(memoryEngine({ ephemeral: true })); // no auth: every content route answers 403
    await router.ready;
    expect((await request(app).get('/api/makers')).status).toBe(403);
    await expectHealthy(app);
  });

  it('503 "still starting" at once while the first start-up runs (a probe never waits readyWaitMS), then 204', async () => {
    const slow = slowStartingEngine(memoryEngine({ ephemeral: true }));
    const { router, app } = mount(slow.engine, { readyWaitMS: 60_000 });
    await expectDown(app, 'Service Unavailable: the storage engine is still starting', 'the storage engine is still starting');
    slow.start();
    await router.ready;
    await expectHealthy(app);
  });

  it('503 after a failed start-up, without the cause (it names hosts and files)', async () => {
    const slow = slowStartingEngine(memoryEngine({ ephemeral: true }));
    const { router, app } = mount(slow.engine, { readyWaitMS: 0 });
    slow.fail(new Error('connect ECONNREFUSED db.internal:27017'));
    await expect(router.ready).rejects.toThrow('ECONNREFUSED');
    await expectDown(app, 'Service Unavailable: the storage engine did not start', 'the storage engine did not start (the cause is in the server log)');
    expect((await request(app).get('/_health')).text).not.toContain('db.internal');
  });

  it('503 while a started engine cannot serve (engine.healthy() false: MongoDB without a primary), 204 when it is back', async () => {
    let healthy = true;
    const inner = memoryEngine({ ephemeral: true });
    const engine = Object.assign(Object.create(inner) as Engine, { healthy: () => healthy });
    const { router, app } = mount(engine);
    await router.ready;
    await expectHealthy(app);
    healthy = false;
    await expectDown(app, 'Service Unavailable: the storage engine is unavailable', 'the storage engine is unavailable (the cause is in the server log)');
    healthy = true;
    await expectHealthy(app);
  });

  it('healthCheck() refuses anything but a content router', () => {
    expect(() => healthCheck(express.Router())).toThrow('healthCheck(router): pass the router that createContentRouter returned');
  });
});
