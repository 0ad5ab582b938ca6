import express from 'express';
import type { Response } from 'supertest';
import { createContentRouter, type ContentRouter, type ContentRouterOptions, type Engine } from '../../lib';
import { httpComponents, httpContentTypes } from '../fixtures/http-model';
import { everyActionPublic } from './every-action';
import { testEngine } from './test-engine';

/** An Express app with the synthetic HTTP model mounted at /api on a fresh memory engine. */
export interface TestApp {
  app: express.Express;
  router: ContentRouter;
  engine: Engine;
}

/**
 * Builds a test app over `__tests__/fixtures/http-model.ts` (locales en, fr; uploads disabled unless given), with
 * every action granted to the Public role unless `overrides.auth` says otherwise (content types are private by
 * default; these suites test the routes, `__tests__/http/auth/` tests permissions). `overrides` are passed to createContentRouter.
 *
 * @example
 * const { app } = await createTestApp({ bodyLimit: '1kb' });
 */
export async function createTestApp(overrides: Partial<ContentRouterOptions> = {}): Promise<TestApp> {
  const engine = overrides.engine ?? testEngine();
  let n = 0;
  const router = createContentRouter({
    contentTypes: httpContentTypes,
    components: httpComponents,
    engine,
    i18n: { locales: ['en', 'fr'], defaultLocale: 'en' },
    upload: false,
    documentId: () => `doc${String(++n).padStart(4, '0')}`,
    auth: everyActionPublic(httpContentTypes),
    ...overrides,
  });
  await router.ready;
  const app = express();
  app.disable('x-powered-by');
  app.use('/api', router);
  return { app, router, engine };
}

/** Asserts a JSON response (never Express's HTML page). */
export function expectJson(res: Response): void {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
}

/**
 * Asserts Strapi's error envelope `{ data: null, error: { status, name, message, details } }`, served as JSON,
 * with no stack trace anywhere in the body.
 *
 * @example
 * expectStrapiError(await request(app).get('/api/nope'), 404, 'NotFoundError', 'Not Found');
 */
export function expectStrapiError(res: Response, status: number, name: string, message?: string | RegExp): void {
  expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status, type: expect.stringMatching(/^application\/json/) });
  expect(res.body).toEqual({
    data: null,
    error: expect.objectContaining({ status, name, message: message ?? expect.any(String) }),
  });
  expect(Object.keys(res.body as object).sort()).toEqual(['data', 'error']);
  expectNoStack(res);
}

/** No stack trace or file path in the raw body. */
export function expectNoStack(res: Response): void {
  expect(res.text ?? '').not.toMatch(/\bat .+\(.*:\d+:\d+\)|node_modules|\/lib\/.*\.ts|\.js:\d+/);
}

/** `details.errors` entry of a body ValidationError. */
export const fieldError = (path: string[], message: string, value: unknown) => ({ path, message, name: 'ValidationError', value });
