import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError, loadStrapiProject } from '../../../lib';
import { createStrapiEnv } from '../../../lib/project';
import { CUSTOM_CONTROLLER, writeBlogStrapiProject } from '../../fixtures/blog-strapi-project';

const dirs: string[] = [];
const project = (files: Record<string, string> = {}): string => {
  const dir = writeBlogStrapiProject(files);
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('loadStrapiProject', () => {
  it('reads the schema files, the user extension and config/ (CommonJS and TypeScript modules, env() over .env)', async () => {
    const dir = project({ 'src/extensions/users-permissions/content-types/user/schema.json': JSON.stringify({ attributes: { nickname: { type: 'string' } } }) });
    const loaded = await loadStrapiProject(dir, { env: { ...Object.fromEntries(fs.readFileSync(path.join(dir, '.env'), 'utf8').trim().split('\n').map((l) => l.split('='))), AUTH_RATE_MAX: '3', JWT_MANAGEMENT: 'refresh', ACCESS_TOKEN_LIFESPAN: '900' } });
    const { contentTypes, components, ...options } = loaded.options;
    expect(contentTypes.map((ct) => ct.info.singularName).sort()).toEqual(['about', 'article', 'author', 'category', 'global']);
    expect(Object.keys(components ?? {}).sort()).toEqual(['shared.media', 'shared.quote', 'shared.rich-text', 'shared.seo', 'shared.slider', 'shared.social']);
    expect(options).toEqual({
      rest: { defaultLimit: 25, maxLimit: 100 },
      auth: { salt: 'blog-project-salt', users: { jwtSecret: 'blog-project-jwt-secret-of-32-bytes-or-more', jwt: { expiresIn: '7d' }, ratelimit: { interval: 60000, max: 3 }, jwtManagement: 'refresh', sessions: { accessTokenLifespan: 900, httpOnly: false }, userSchema: { attributes: { nickname: { type: 'string' } } } } },
      upload: { directory: path.join(fs.realpathSync(dir) === dir ? dir : path.resolve(dir), 'public', 'uploads'), sizeLimit: 1048576 },
      cors: true,
    });
    expect({ prefix: loaded.prefix, server: loaded.server }).toEqual({ prefix: '/api', server: { host: '127.0.0.1', port: 1337 } });
    expect(loaded.notTakenOver.map((n) => [n.file, n.what])).toEqual([
      [CUSTOM_CONTROLLER, 'a controller written as code: not run (the core controller answers)'],
      ['package.json', 'the plugin graphql: not known here (its routes, content types and code are not served)'],
    ]);
  });

  it('reads the project\'s .env under the process\'s environment by default', async () => {
    const dir = project({ '.env': 'JWT_SECRET=from-dotenv\nAPI_MAX_LIMIT=70\n' });
    const loaded = await loadStrapiProject(dir);
    expect(loaded.options.rest).toEqual({ defaultLimit: 25, maxLimit: 70 });
    expect((loaded.options.auth?.users as { jwtSecret: string }).jwtSecret).toBe(process.env.JWT_SECRET ?? 'from-dotenv');
  });

  it('merges config/env/<NODE_ENV>/ over config/ as Strapi does; the CORS entry\'s config in Strapi\'s shape, keys Strapi ignores noted', async () => {
    const dir = project({
      'config/env/production/api.js': 'export default { rest: { maxLimit: 500 } };\n',
      // lodash's merge (Strapi's) merges arrays index by index: the list is given whole
      'config/env/production/middlewares.js':
        "module.exports = ({ env }) => ['strapi::logger', 'strapi::errors', 'strapi::security', { name: 'strapi::cors', config: { origin: env.array('CORS_ORIGINS'), keepHeaderOnError: true, maxAge: 60 } }, " +
        "'strapi::poweredBy', 'strapi::query', { name: 'strapi::body', config: { jsonLimit: '4mb' } }, 'strapi::session', 'strapi::favicon', 'strapi::public', 'global::audit'];\n",
    });
    const loaded = await loadStrapiProject(dir, { env: { NODE_ENV: 'production', JWT_SECRET: 's', CORS_ORIGINS: '[https://a.example, "https://b.example"]' } });
    expect(loaded.options.rest).toEqual({ defaultLimit: 25, maxLimit: 500 });
    expect(loaded.options.cors).toEqual({ origin: ['https://a.example', 'https://b.example'], maxAge: 60 });
    expect(loaded.options.bodyLimit).toBe('4mb');
    expect(loaded.notTakenOver.filter((n) => n.file === 'config/middlewares.ts').map((n) => n.what)).toEqual([
      'the middleware "global::audit": not run',
      'strapi::cors keepHeaderOnError',
    ]);
  });

  it('without a JWT secret: refused in production (as Strapi), a secret for the run and a note otherwise', async () => {
    const dir = project({ '.env': '' });
    await expect(loadStrapiProject(dir, { env: { NODE_ENV: 'production' } })).rejects.toThrow(/CR_INVALID_PROJECT: .*Missing jwtSecret/);
    const loaded = await loadStrapiProject(dir, { env: {} });
    expect((loaded.options.auth?.users as { jwtSecret: string }).jwtSecret).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(loaded.notTakenOver.map((n) => n.what)).toContain('no JWT secret (config.jwtSecret, or JWT_SECRET in .env)');
  });

  it.each([
    ['a config module that throws', { 'config/api.js': "module.exports = () => { throw new Error('boom'); };\n" }, /CR_INVALID_PROJECT: .*config[\\/]api\.js: boom/],
    ['a config module that does not compile', { 'config/plugins.ts': 'export default {\n' }, /CR_INVALID_PROJECT: .*config[\\/]plugins\.ts/],
    ['a schema file that is not JSON', { 'src/api/article/content-types/article/schema.json': '{' }, /CR_INVALID_PROJECT: .*schema\.json/],
  ])('%s is a CR_INVALID_PROJECT naming the file', async (_name, files, message) => {
    const error = await loadStrapiProject(project(files), { env: { JWT_SECRET: 's' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(message);
  });

  it('a folder without src/ is not a Strapi project', async () => {
    await expect(loadStrapiProject(path.join(project(), 'config'))).rejects.toThrow(/CR_INVALID_PROJECT: .* is not a Strapi project/);
  });

  it('lists code it does not run, file by file, and leaves out what the generators write unchanged', async () => {
    const dir = project({
      'src/api/category/routes/custom.ts': "export default { routes: [{ method: 'GET', path: '/categories/top', handler: 'category.top' }] };\n",
      'src/api/author/policies/is-owner.js': 'module.exports = () => true;\n',
      'src/api/article/content-types/article/lifecycles.js': 'module.exports = { afterCreate() {} };\n',
      'src/index.ts': 'export default {\n  register() {},\n  async bootstrap({ strapi }) { await strapi.db.query("x"); },\n};\n',
      'src/middlewares/timer.js': 'module.exports = () => async (ctx, next) => next();\n',
      'src/plugins/my-plugin/package.json': '{}',
      'src/admin/app.tsx': 'export default { config: {} };\n',
    });
    const loaded = await loadStrapiProject(dir, { env: { JWT_SECRET: 's' } });
    expect(loaded.notTakenOver.map((n) => n.file)).toEqual([
      CUSTOM_CONTROLLER,
      'src/api/article/content-types/article/lifecycles.js',
      'src/api/author/policies/is-owner.js',
      'src/api/category/routes/custom.ts',
      'src/index.ts',
      'src/middlewares/timer.js',
      'src/plugins/my-plugin',
      'src/admin/app.tsx',
      'package.json',
    ]);
    expect(loaded.notTakenOver.every((n) => n.instead.length > 0)).toBe(true);
  });
});

describe('Strapi\'s env helper', () => {
  const env = createStrapiEnv({ N: '42', F: '1.5', T: 'true', Y: 'yes', A: '[a, "b" ,c]', J: '{"x":1}', BAD: '{', E: '' });
  it.each([
    ['env(N)', env('N', 'd'), '42'],
    ['env(missing, default)', env('NOPE', 'd'), 'd'],
    ['env(empty) is set', env('E', 'd'), ''],
    ['env.int', env.int('N', 1), 42],
    ['env.int missing', env.int('NOPE', 7), 7],
    ['env.float', env.float('F'), 1.5],
    ['env.bool true', env.bool('T', false), true],
    ['env.bool other text', env.bool('Y', true), false],
    ['env.array', env.array('A'), ['a', 'b', 'c']],
    ['env.json', env.json('J'), { x: 1 }],
    ['env.oneOf', env.oneOf('Y', ['yes', 'no'], 'no'), 'yes'],
  ])('%s', (_name, got, expected) => expect(got).toEqual(expected));

  it('env.json of bad JSON throws naming the variable', () => {
    expect(() => env.json('BAD')).toThrow('Invalid json environment variable BAD');
  });
});
