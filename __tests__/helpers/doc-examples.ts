import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateTypes, type ComponentSchema, type ContentTypeSchema } from '../../lib';

/**
 * The code examples of README.md and docs/*.md, to type-check and run as a user would: every ```ts block is a
 * complete program of a `"type": "module"` TypeScript project (JSON imported `with { type: 'json' }`), every
 * ```js block one of a CommonJS project (`require`). docs/engines.md is left out: the coordinator owns it.
 */
export interface DocExample {
  /** `README.md:21`: where the block starts. */
  where: string;
  lang: 'ts' | 'js';
  code: string;
}

const REPO = join(__dirname, '..', '..');
const SKIPPED = new Set<string>();

/** Every ```ts and ```js block of README.md and docs/*.md. */
export function docExamples(): DocExample[] {
  const files = ['README.md', ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md') && !SKIPPED.has(f)).map((f) => `docs/${f}`)];
  const examples: DocExample[] = [];
  for (const file of files) {
    const lines = readFileSync(join(REPO, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const open = /^```(ts|js)\s*$/.exec(lines[i]!);
      if (!open) continue;
      const start = i;
      const body: string[] = [];
      while (++i < lines.length && !/^```\s*$/.test(lines[i]!)) body.push(lines[i]!);
      examples.push({ where: `${file}:${start + 1}`, lang: open[1] as 'ts' | 'js', code: `${body.join('\n')}\n` });
    }
  }
  return examples;
}

const field = (type: string, extra: Record<string, unknown> = {}) => ({ type, ...extra });

/** The schema files the examples import, at the paths of a Strapi project. */
const FIXTURES: Record<string, unknown> = {
  'src/api/article/content-types/article/schema.json': {
    kind: 'collectionType',
    collectionName: 'articles',
    info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
    options: { draftAndPublish: true },
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      title: field('string', { required: true }),
      slug: field('uid', { targetField: 'title' }),
      publishDate: field('date'),
      cover: field('media', { multiple: false, allowedTypes: ['images'] }),
      author: field('relation', { relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' }),
      seo: field('component', { component: 'shared.seo', repeatable: false }),
    },
  },
  'src/api/author/content-types/author/schema.json': {
    kind: 'collectionType',
    collectionName: 'authors',
    info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
    options: { draftAndPublish: false },
    attributes: {
      name: field('string'),
      articles: field('relation', { relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' }),
    },
  },
  'src/api/page/content-types/page/schema.json': {
    kind: 'collectionType',
    collectionName: 'pages',
    info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
    options: { draftAndPublish: true },
    attributes: { title: field('string'), seo: field('component', { component: 'shared.seo', repeatable: false }) },
  },
  'src/components/shared/seo.json': {
    collectionName: 'components_shared_seos',
    info: { displayName: 'Seo' },
    attributes: { metaTitle: field('string'), metaImage: field('media', { multiple: false, allowedTypes: ['images'] }) },
  },
};

/**
 * A preload for every example run: `listen` takes a free port on 127.0.0.1 instead of the example's, then the
 * program requests `GET /api/articles` from itself, prints `EXAMPLE_GET <status>` and exits; a program that never
 * ends fails after 30 s.
 */
const PRELOAD = `'use strict';
const http = require('node:http');
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
  const callback = args.find((a) => typeof a === 'function');
  const server = listen.call(this, 0, '127.0.0.1');
  server.once('listening', async () => {
    try {
      if (callback) callback();
      const res = await fetch('http://127.0.0.1:' + server.address().port + '/api/articles');
      console.log('EXAMPLE_GET ' + res.status + ' ' + (await res.text()).slice(0, 300));
      process.exit(res.status < 500 ? 0 : 1);
    } catch (err) {
      console.error(err);
      process.exit(1);
    }
  });
  return server;
};
setTimeout(() => { console.error('the example did not end within 30 s'); process.exit(3); }, 30000).unref();
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    rootDir: '.',
    outDir: 'out',
    types: ['node'],
  },
  include: ['*.ts', 'src/**/*.json', 'types/*.d.ts'],
};

const FIXTURE_TYPES = Object.keys(FIXTURES).filter((p) => p.startsWith('src/api/'));

const JSCONFIG = { compilerOptions: { ...TSCONFIG.compilerOptions, allowJs: true, checkJs: true, noEmit: true, outDir: undefined }, include: ['*.js'] };

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** Writes the ESM project (`esm/`) and the CommonJS one (`cjs/`) under `root`; answers their example files. */
export function writeExampleProjects(root: string, examples: DocExample[]): { esm: string; cjs: string; files: Map<DocExample, string>; preload: string } {
  const esm = join(root, 'esm');
  const cjs = join(root, 'cjs');
  const preload = join(root, 'preload.cjs');
  write(preload, PRELOAD);
  write(join(esm, 'package.json'), JSON.stringify({ name: 'docs-esm', private: true, type: 'module' }));
  write(join(esm, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  write(join(cjs, 'package.json'), JSON.stringify({ name: 'docs-cjs', private: true, type: 'commonjs' }));
  write(join(cjs, 'tsconfig.json'), JSON.stringify(JSCONFIG));
  for (const dir of [esm, cjs]) {
    for (const [path, json] of Object.entries(FIXTURES)) write(join(dir, path), JSON.stringify(json, null, 2));
  }
  // What `npx content-router types` writes for these schemas (docs/types.md): every TypeScript example sees it.
  write(join(esm, 'types', 'content-router.d.ts'), generateTypes({ contentTypes: FIXTURE_TYPES.map((p) => FIXTURES[p] as ContentTypeSchema), components: { 'shared.seo': FIXTURES['src/components/shared/seo.json'] as ComponentSchema } }));
  const files = new Map<DocExample, string>();
  examples.forEach((example, i) => {
    const name = `example-${i + 1}`;
    if (example.lang === 'ts') {
      write(join(esm, `${name}.ts`), `// ${example.where}\n${example.code}`);
      files.set(example, join(esm, 'out', `${name}.js`));
    } else {
      write(join(cjs, `${name}.js`), `// ${example.where}\n${example.code}`);
      files.set(example, join(cjs, `${name}.js`));
    }
  });
  return { esm, cjs, files, preload };
}
