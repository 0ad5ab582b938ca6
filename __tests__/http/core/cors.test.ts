import request from 'supertest';
import { ConfigurationError, createContentRouter } from '../../../lib';
import { httpContentTypes } from '../../fixtures/http-model';
import { createTestApp, expectStrapiError, type TestApp } from '../../helpers/http';

const ORIGIN = 'https://front.example';
const CORS_HEADERS = ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-max-age', 'access-control-expose-headers'];
const corsHeaders = (headers: Record<string, string>): Record<string, string> => Object.fromEntries(CORS_HEADERS.filter((h) => h in headers).map((h) => [h, headers[h]!]));

const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((a) => a.engine.close())));
const app = async (cors: unknown): Promise<TestApp['app']> => {
  const built = await createTestApp({ cors: cors as boolean });
  apps.push(built);
  return built.app;
};

describe('cors: true (Strapi\'s strapi::cors defaults)', () => {
  it('answers a preflight 204 with Strapi\'s methods, headers and a year\'s max age, echoing the origin (credentials)', async () => {
    const res = await request(await app(true)).options('/api/gadgets').set('Origin', ORIGIN).set('Access-Control-Request-Method', 'POST').set('Access-Control-Request-Headers', 'authorization,content-type');
    expect(res.status).toBe(204);
    expect(corsHeaders(res.headers)).toEqual({
      'access-control-allow-origin': ORIGIN,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS',
      'access-control-allow-headers': 'Content-Type,Authorization,Origin,Accept',
      'access-control-max-age': '31536000',
    });
    expect(res.headers.vary).toMatch(/Origin/);
  });

  it('sets the origin and credentials on a simple request, and keeps them on an error answer', async () => {
    const served = await app(true);
    const ok = await request(served).get('/api/gadgets').set('Origin', ORIGIN);
    expect(ok.status).toBe(200);
    expect(corsHeaders(ok.headers)).toEqual({ 'access-control-allow-origin': ORIGIN, 'access-control-allow-credentials': 'true' });
    const missing = await request(served).get('/api/nothing-here').set('Origin', ORIGIN);
    expectStrapiError(missing, 404, 'NotFoundError');
    expect(corsHeaders(missing.headers)).toEqual({ 'access-control-allow-origin': ORIGIN, 'access-control-allow-credentials': 'true' });
  });

  it('sends no CORS header without an Origin, nor to an OPTIONS that is no preflight (Vary: Origin always)', async () => {
    const served = await app(true);
    const plain = await request(served).get('/api/gadgets');
    expect(corsHeaders(plain.headers)).toEqual({});
    expect(plain.headers.vary).toMatch(/Origin/);
    const options = await request(served).options('/api/gadgets').set('Origin', ORIGIN);
    expect(corsHeaders(options.headers)).toEqual({});
  });
});

describe('cors: Strapi\'s config shape', () => {
  it('a list of origins answers a listed origin, and nothing to another', async () => {
    const served = await app({ origin: ['https://a.example', ORIGIN], expose: ['X-Total'], credentials: false, maxAge: 600, methods: 'GET', headers: '*' });
    const listed = await request(served).options('/api/gadgets').set('Origin', ORIGIN).set('Access-Control-Request-Method', 'GET');
    expect(corsHeaders(listed.headers)).toEqual({ 'access-control-allow-origin': ORIGIN, 'access-control-allow-methods': 'GET', 'access-control-allow-headers': '*', 'access-control-max-age': '600' });
    const simple = await request(served).get('/api/gadgets').set('Origin', ORIGIN);
    expect(corsHeaders(simple.headers)).toEqual({ 'access-control-allow-origin': ORIGIN, 'access-control-expose-headers': 'X-Total' });
    const other = await request(served).get('/api/gadgets').set('Origin', 'https://evil.example');
    expect(corsHeaders(other.headers)).toEqual({});
    const otherPreflight = await request(served).options('/api/gadgets').set('Origin', 'https://evil.example').set('Access-Control-Request-Method', 'GET');
    expect(corsHeaders(otherPreflight.headers)).toEqual({});
  });

  it.each([
    ['origins separated by commas', 'https://a.example, https://front.example', ORIGIN],
    ['one origin, answered as it is', 'https://a.example', 'https://a.example'],
    ['* without credentials', '*', '*'],
  ])('%s', async (_name, origin, expected) => {
    const res = await request(await app({ origin, credentials: false })).get('/api/gadgets').set('Origin', ORIGIN);
    expect(res.headers['access-control-allow-origin']).toBe(expected);
  });

  it('a function of the request', async () => {
    const served = await app({ origin: async (req: { get(name: string): string | undefined }) => (req.get('Origin')?.endsWith('.example') ? [req.get('Origin')!] : []) });
    expect((await request(served).get('/api/gadgets').set('Origin', ORIGIN)).headers['access-control-allow-origin']).toBe(ORIGIN);
    expect((await request(served).get('/api/gadgets').set('Origin', 'https://x.test')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('no cors option: no CORS header', async () => {
    const res = await request(await app(undefined)).get('/api/gadgets').set('Origin', ORIGIN);
    expect(corsHeaders(res.headers)).toEqual({});
  });

  it.each([
    [{ origni: '*' }, /options\.cors\.origni: unknown option \(did you mean "origin"\?\)/],
    [{ origin: 5 }, /options\.cors\.origin must be a string/],
    [{ maxAge: -1 }, /options\.cors\.maxAge/],
    ['yes', /options\.cors/],
  ])('refuses %j at start-up (CR_INVALID_OPTIONS)', (cors, message) => {
    const build = (): unknown => createContentRouter({ contentTypes: httpContentTypes, cors: cors as unknown as boolean });
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(message);
  });
});
