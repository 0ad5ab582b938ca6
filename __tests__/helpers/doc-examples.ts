import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateTypes, memoryEngine, type ComponentSchema, type ContentTypeSchema } from '../../lib';

/**
 * The code examples of README.md and docs/*.md that run, as a user would run them (the convention, for writers:
 * docs/contributing.md). A fenced block's info string is its language, then markers:
 * - every ```ts block is a complete program of a `"type": "module"` TypeScript project (JSON imported
 *   `with { type: 'json' }`), every ```js block one of a CommonJS project (`require`): type-checked and run;
 * - a ```sh block marked `runnable` (```sh runnable) runs in bash (`-e -o pipefail`) in a folder holding the
 *   example schema files and a data file (`.data/content.db`, `data/content.db`), with the published package
 *   installed (`npx content-router ...`);
 * - a ```text output block right after a runnable block lists lines it must print, in that order.
 * Any other marker is refused (a typo must not silently stop a block from running).
 */
export interface DocExample {
  /** `README.md:21`: where the block starts. */
  where: string;
  lang: 'ts' | 'js' | 'sh';
  code: string;
  /** The lines of the ```text output block after it: what the run must print, in this order. */
  output?: string[];
}

const REPO = join(__dirname, '..', '..');
const SKIPPED = new Set<string>();
const MARKERS = new Set(['runnable', 'output']);

/** The markdown files whose examples run: README.md and docs/*.md. */
export function docFiles(): string[] {
  return ['README.md', ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md') && !SKIPPED.has(f)).sort().map((f) => `docs/${f}`)];
}

/** The runnable blocks of one markdown text (`file` names it in `where` and in errors). */
export function parseDocExamples(file: string, text: string): DocExample[] {
  const lines = text.split('\n');
  const examples: DocExample[] = [];
  let previous: { example: DocExample | undefined; end: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const lang = open[1]!;
    const markers = open[2]!.trim().split(/\s+/).filter(Boolean);
    const body: string[] = [];
    while (++i < lines.length && !/^```\s*$/.test(lines[i]!)) body.push(lines[i]!);
    const where = `${file}:${start + 1}`;
    const unknown = markers.filter((m) => !MARKERS.has(m));
    if (unknown.length > 0) throw new Error(`${where}: unknown marker ${unknown.join(' ')} on a \`\`\`${lang} block (markers: ${[...MARKERS].join(', ')})`);
    if (markers.includes('output')) {
      const after = previous && lines.slice(previous.end + 1, start).every((l) => l.trim() === '');
      if (lang !== 'text' || !after || !previous?.example) throw new Error(`${where}: a \`\`\`text output block must follow a runnable block directly`);
      previous.example.output = body.filter((l) => l.trim() !== '');
      previous = undefined;
      continue;
    }
    let example: DocExample | undefined;
    if (lang === 'ts' || lang === 'js' || (lang === 'sh' && markers.includes('runnable'))) {
      example = { where, lang, code: `${body.join('\n')}\n` };
      examples.push(example);
    } else if (markers.includes('runnable')) {
      throw new Error(`${where}: only ts, js and sh blocks run`);
    }
    previous = { example, end: i };
  }
  return examples;
}

/** Every runnable block of README.md and docs/*.md. */
export function docExamples(): DocExample[] {
  return docFiles().flatMap((file) => parseDocExamples(file, readFileSync(join(REPO, file), 'utf8')));
}

/** Whether `stdout` holds the `expected` lines in this order (each a whole line, surrounding blanks ignored). */
export function printedInOrder(stdout: string, expected: readonly string[]): boolean {
  const lines = stdout.split('\n').map((l) => l.trim());
  let at = 0;
  for (const line of expected) {
    const found = lines.indexOf(line.trim(), at);
    if (found < 0) return false;
    at = found + 1;
  }
  return true;
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
  'src/extensions/users-permissions/content-types/user/schema.json': {
    kind: 'collectionType',
    collectionName: 'up_users',
    info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
    attributes: { nickname: field('string') },
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
  include: ['*.ts', 'src/api/**/*.json', 'src/components/**/*.json', 'types/*.d.ts'],
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
    if (example.lang === 'sh') {
      const dir = join(root, 'sh', name);
      for (const [path, json] of Object.entries(FIXTURES)) write(join(dir, path), JSON.stringify(json, null, 2));
      write(join(dir, 'example.sh'), `# ${example.where}\n${example.code}`);
      files.set(example, join(dir, 'example.sh'));
    } else if (example.lang === 'ts') {
      write(join(esm, `${name}.ts`), `// ${example.where}\n${example.code}`);
      files.set(example, join(esm, 'out', `${name}.js`));
    } else {
      write(join(cjs, `${name}.js`), `// ${example.where}\n${example.code}`);
      files.set(example, join(cjs, `${name}.js`));
    }
  });
  return { esm, cjs, files, preload };
}

/**
 * The data files a shell example finds next to it, as an app using the embedded engine leaves them
 * (`.data/content.db` as the example app's, `data/content.db` as the docs' `memoryEngine({ file })`): a few
 * articles and an author.
 */
export async function writeShellDataFiles(dir: string): Promise<void> {
  for (const file of ['.data/content.db', 'data/content.db']) {
    const engine = memoryEngine({ file: join(dir, file) });
    try {
      await engine.init([{ name: 'articles', indexes: [] }, { name: 'authors', indexes: [] }]);
      await engine.insertMany('articles', [1, 2, 3].map((id) => ({ id, documentId: `article-${id}`, title: `Article ${id}` })));
      await engine.insertMany('authors', [{ id: 1, documentId: 'author-1', name: 'Ada' }]);
    } finally {
      await engine.close();
    }
  }
}
