import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docExamples, printedInOrder, writeExampleProjects, writeShellDataFiles } from '../helpers/doc-examples';

/**
 * The published package works for a new user: `npm pack` (which builds dist/ through `prepack`), then the
 * tarball installed once (with express 5 and `cors`, the host's own dependencies of the examples) for two
 * throwaway Express 5 apps, a plain CommonJS one (`require`) and an ESM one (named `import`), each serving
 * `GET /api/notes` from the memory engine; and every runnable code example of README.md and docs/ (the TypeScript
 * and JavaScript ones type-checked with tsc, the shell ones with the installed `content-router` command), run as
 * written, and what each prints checked against its output block (see helpers/doc-examples.ts).
 */
const REPO = join(__dirname, '..', '..');
const TIMEOUT = 180_000;
const npmAvailable = spawnSync('npm', ['--version'], { encoding: 'utf8' }).status === 0;
if (!npmAvailable) {
  // eslint-disable-next-line no-console
  console.log('tarball.test: skipped, `npm` is not on PATH');
}

const NOTE_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string', required: true } },
};

/** The app body shared by both module systems: mount, listen on a free port, request itself, print. */
const APP_BODY = `
const app = express();
app.use('/api', createContentRouter({ contentTypes: [${JSON.stringify(NOTE_SCHEMA)}], engine: memoryEngine({ ephemeral: true }), auth: { public: { actions: ['api::note.note.find'] } } }));
setTimeout(() => { console.error('timed out'); process.exit(3); }, 60000).unref();
const server = app.listen(0, '127.0.0.1', async () => {
  try {
    const res = await fetch('http://127.0.0.1:' + server.address().port + '/api/notes');
    const text = await res.text();
    console.log('RESULT ' + JSON.stringify({ status: res.status, contentType: res.headers.get('content-type'), text }));
    process.exit(0);
  } catch (err) {
    console.error(err);
    process.exit(1);
  }
});
`;

const APPS = {
  cjs: {
    file: 'server.js',
    packageJson: { name: 'cr-cjs-app', version: '1.0.0', private: true, type: 'commonjs' },
    source: `'use strict';\nconst express = require('express');\nconst { createContentRouter, memoryEngine } = require('content-router');\n${APP_BODY}`,
  },
  esm: {
    file: 'server.mjs',
    packageJson: { name: 'cr-esm-app', version: '1.0.0', private: true, type: 'module' },
    source: `import express from 'express';\nimport { createContentRouter, memoryEngine } from 'content-router';\n${APP_BODY}`,
  },
} as const;

function run(cmd: string, args: readonly string[], cwd: string): SpawnSyncReturns<string> {
  const res = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: TIMEOUT, env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (res.error) throw res.error;
  return res;
}

function expectOk(res: SpawnSyncReturns<string>, what: string): void {
  if (res.status !== 0) throw new Error(`${what} exited with ${String(res.status)}\n${res.stdout}\n${res.stderr}`);
}

(npmAvailable ? describe : describe.skip)('the packed tarball', () => {
  let tmp: string;
  let tarball: string;

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'cr-tarball-'));
    const packed = run('npm', ['pack', '--pack-destination', tmp], REPO);
    expectOk(packed, 'npm pack');
    const tgz = readdirSync(tmp).filter((f) => f.endsWith('.tgz'));
    expect(tgz).toHaveLength(1);
    tarball = join(tmp, tgz[0]!);
    // One install for every app below (they resolve tmp/node_modules from their folders).
    writeFileSync(join(tmp, 'package.json'), JSON.stringify({ name: 'cr-apps', version: '1.0.0', private: true }));
    expectOk(run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, 'express@5', 'cors@2', '@types/cors@2'], tmp), 'npm install');
    // Type declarations and mongoose from this repository when the install did not bring them (after it: it prunes).
    for (const name of ['@types/express', '@types/node', 'mongoose']) {
      const to = join(tmp, 'node_modules', name);
      if (!existsSync(to)) symlinkSync(join(REPO, 'node_modules', name), to, 'dir');
    }
  }, TIMEOUT);

  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('ships dist/ (JavaScript and declarations, no source maps), LICENSE, README.md, CHANGELOG.md and package.json, nothing else', () => {
    const listed = run('tar', ['-tzf', tarball], tmp);
    expectOk(listed, 'tar -tzf');
    const files = listed.stdout.split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
    const outside = files.filter((f) => !f.startsWith('dist/')).sort();
    expect(outside).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json']);
    // The built admin (dist/admin: index.html and Vite's hashed assets, docs/admin.md) ships as it is built; the rest
    // of dist/ is the library.
    const dist = files.filter((f) => f.startsWith('dist/') && !f.startsWith('dist/admin/'));
    // Maps would point at lib/*.ts, which is not shipped; the JavaScript is tsc's readable output.
    expect(dist.filter((f) => !/\.(js|d\.ts)$/.test(f))).toEqual([]);
    const js = dist.filter((f) => f.endsWith('.js'));
    expect(js.length).toBeGreaterThan(50);
    expect(js.filter((f) => !dist.includes(f.replace(/\.js$/, '.d.ts')))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/cli.js']));
    // `npm pack` ran `npm run build`: when it builds the admin, the package ships it (createAdmin needs no build step).
    if (existsSync(join(REPO, 'dist', 'admin', 'index.html'))) {
      expect(files).toEqual(expect.arrayContaining(['dist/admin/index.html', expect.stringMatching(/^dist\/admin\/assets\/.+\.js$/)]));
    }
    const license = run('tar', ['-xzOf', tarball, 'package/LICENSE'], tmp);
    expect(license.stdout).toMatch(/^MIT License/);
  });

  it.each(Object.keys(APPS) as (keyof typeof APPS)[])('installs into a fresh %s Express 5 app and serves GET /api/notes', (kind) => {
    const spec = APPS[kind];
    const dir = join(tmp, `app-${kind}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify(spec.packageJson, null, 2));
    writeFileSync(join(dir, spec.file), spec.source);
    const started = run(process.execPath, [spec.file], dir);
    expectOk(started, `node ${spec.file}`);
    const line = started.stdout.split('\n').find((l) => l.startsWith('RESULT '));
    if (!line) throw new Error(`no RESULT line from ${spec.file}\n${started.stdout}\n${started.stderr}`);
    const result = JSON.parse(line.slice('RESULT '.length)) as { status: number; contentType: string | null; text: string };
    expect(result.status).toBe(200);
    expect(result.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(result.text)).toEqual({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
  }, TIMEOUT);

  it('`content-router types` writes declarations that a strict TypeScript ESM app (skipLibCheck: false) uses through router.documents()', () => {
    const dir = join(tmp, 'app-types');
    mkdirSync(join(dir, 'schemas', 'note'), { recursive: true });
    mkdirSync(join(dir, 'components', 'shared'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'cr-types-app', version: '1.0.0', private: true, type: 'module' }));
    const note = { ...NOTE_SCHEMA, attributes: { ...NOTE_SCHEMA.attributes, big: { type: 'biginteger' }, seo: { type: 'component', component: 'shared.seo' } } };
    writeFileSync(join(dir, 'schemas', 'note', 'schema.json'), JSON.stringify(note));
    writeFileSync(join(dir, 'components', 'shared', 'seo.json'), JSON.stringify({ attributes: { metaTitle: { type: 'string' } } }));
    const bin = join(tmp, 'node_modules', '.bin', 'content-router');
    expectOk(run(bin, ['types', '--schemas', 'schemas', '--components', 'components', '--out', 'types/content.d.ts'], dir), 'content-router types');
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, skipLibCheck: false, resolveJsonModule: true, outDir: 'out', types: ['node'] },
      include: ['app.ts', 'types/*.d.ts'],
    }));
    writeFileSync(join(dir, 'app.ts'), [
      "import { createContentRouter, memoryEngine } from 'content-router';",
      "import type { Note, SharedSeo } from './types/content.js';",
      "import note from './schemas/note/schema.json' with { type: 'json' };",
      "import seo from './components/shared/seo.json' with { type: 'json' };",
      "const router = createContentRouter({ contentTypes: [note], components: { 'shared.seo': seo }, engine: memoryEngine({ ephemeral: true }), auth: {} });",
      'const notes = router.documents(\'api::note.note\');',
      "const created: Note = await notes.create({ data: { title: 'Hello', big: '9007199254740993', seo: { metaTitle: 'm' } } });",
      "const [found] = await notes.findMany({ populate: { seo: true } });",
      'const seoOf: SharedSeo | null | undefined = found?.seo;',
      'const big: string | null = created.big;',
      '// @ts-expect-error: a title is a string',
      'const wrong: number = created.title;',
      'void wrong;',
      '// @ts-expect-error: no attribute titel: the Document Service takes the generated input type (not called)',
      "const typo = () => notes.create({ data: { titel: 'x' } });",
      'void typo;',
      "console.log('RESULT ' + JSON.stringify({ title: created.title, big, seo: seoOf?.metaTitle }));",
      '',
    ].join('\n'));
    expectOk(run(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], dir), 'tsc (skipLibCheck: false)');
    const started = run(process.execPath, [join('out', 'app.js')], dir);
    expectOk(started, 'node out/app.js');
    expect(started.stdout).toContain('RESULT {"title":"Hello","big":"9007199254740993","seo":"m"}');
  }, TIMEOUT);

  describe('the examples of README.md and docs/', () => {
    const examples = docExamples();
    let projects: ReturnType<typeof writeExampleProjects>;
    const tsc = (project: string) => run(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], project);

    beforeAll(async () => {
      projects = writeExampleProjects(join(tmp, 'docs'), examples);
      for (const example of examples.filter((e) => e.lang === 'sh')) await writeShellDataFiles(join(projects.files.get(example)!, '..'));
    });

    it('there are examples of every kind', () => {
      expect(examples.filter((e) => e.lang === 'ts').length).toBeGreaterThan(5);
      expect(examples.filter((e) => e.lang === 'js').length).toBeGreaterThan(0);
      expect(examples.filter((e) => e.lang === 'sh').length).toBeGreaterThan(2);
      expect(examples.filter((e) => e.output).length).toBeGreaterThan(0);
    });

    it('type-check: the TypeScript ones in a "type": "module" project, the CommonJS ones with checkJs', () => {
      expectOk(tsc(projects.esm), 'tsc (ESM examples)');
      expectOk(tsc(projects.cjs), 'tsc --checkJs (CommonJS examples)');
    }, TIMEOUT);

    it.each(examples.map((e) => [e.where, e] as const))('runs %s', (_where, example) => {
      const file = projects.files.get(example)!;
      // What the examples read from the environment (docs/security.md's token hashes: any 128 hex digits; docs/users.md's JWT secret and social-login clients).
      const hash = (c: string) => c.repeat(128);
      const env = { ...process.env, NODE_ENV: 'test', MONGODB_URI: '', CMS_TOKEN: 'example-token-0123456789abcdef', API_TOKEN_SALT: 'salt', FRONTEND_TOKEN_HASH: hash('a'), IMPORTER_TOKEN_HASH: hash('b'), UPLOADER_TOKEN_HASH: hash('c'), JWT_SECRET: 'example-jwt-secret', GITHUB_CLIENT_ID: 'example-github-id', GITHUB_CLIENT_SECRET: 'example-github-secret', OIDC_ISSUER: 'https://id.example.com/realms/site', OIDC_CLIENT_ID: 'example-oidc-id', OIDC_CLIENT_SECRET: 'example-oidc-secret' };
      // A shell example: bash in its own folder, `npx content-router` the installed package's command.
      // Each program starts on no data, as in a project of its own: './data/content.db' is not another example's
      // (docs/admin.md's users-permissions roles, stored there, would be the next one's: stored roles win).
      if (example.lang !== 'sh') rmSync(join(example.lang === 'ts' ? projects.esm : projects.cjs, 'data'), { recursive: true, force: true });
      const res =
        example.lang === 'sh'
          ? spawnSync('bash', ['-e', '-o', 'pipefail', file], { cwd: join(file, '..'), encoding: 'utf8', timeout: TIMEOUT, env: { ...env, TOKEN: env.CMS_TOKEN, PATH: `${join(tmp, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` } })
          : spawnSync(process.execPath, ['--require', projects.preload, file], { cwd: example.lang === 'ts' ? projects.esm : projects.cjs, encoding: 'utf8', timeout: TIMEOUT, env });
      if (res.status !== 0) throw new Error(`${example.where} exited with ${String(res.status)}\n${res.stdout}\n${res.stderr}`);
      // A server example answered its own GET /api/articles (each one lets the public find articles).
      if (example.code.includes('.listen(')) expect(res.stdout).toMatch(/^EXAMPLE_GET 200 \{"data":\[/m);
      if (example.output && !printedInOrder(res.stdout, example.output)) {
        throw new Error(`${example.where} did not print its output block:\n${example.output.join('\n')}\nIt printed:\n${res.stdout}`);
      }
    }, TIMEOUT);
  });
});
