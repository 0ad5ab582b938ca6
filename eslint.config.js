// Architecture rules: imports only go down the pipeline, no cycles, and each driver library stays in its one
// folder. `npm run lint`. The layers are described in docs/architecture.md (the project's style guide, STYLE.md,
// lives outside this repository, in ../shared/STYLE.md of the workspace; docs/architecture.md carries what the
// rules below need from it).
const BELOW_OPTIONS = ['schema', 'engine', 'errors', 'query', 'pipeline', 'format', 'documents', 'media', 'auth', 'http', 'users-permissions', 'webhooks', 'openapi', 'transfer'];
const ALL_BUT = (...names) => ['http', 'documents', 'query', 'pipeline', 'format', 'media', 'auth', 'engine', 'schema', 'options', 'users-permissions', 'webhooks', 'openapi', 'transfer', 'typegen', 'cli']
  .filter((name) => !names.includes(name)).map((name) => `./lib/${name}`);
const tseslint = require('typescript-eslint');
const importPlugin = require('eslint-plugin-import');

const DRIVERS = 'express only in lib/http, mongoose only in lib/engine/mongo, mingo only in lib/engine/memory';
const restrict = (names, message) => ({
  '@typescript-eslint/no-restricted-imports': ['error', { paths: names.map((name) => ({ name, message, allowTypeImports: true })) }],
});

module.exports = [
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  {
    files: ['lib/**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { import: importPlugin, '@typescript-eslint': tseslint.plugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.js'] } } },
    rules: {
      'import/no-cycle': 'error',
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './lib/engine', from: ['./lib/http', './lib/documents', './lib/query', './lib/format', './lib/media', './lib/auth'], message: 'engine/ is the bottom layer' },
            // The one file of pipeline/ the engine may read: the compiler's reserved field names, which the memory
            // engine matches to recognise the stages the compiler emits (docs/architecture.md, "Contracts").
            { target: './lib/engine', from: './lib/pipeline', except: ['./reserved-fields.ts'], message: 'engine/ is the bottom layer: from pipeline/ only reserved-fields.ts' },
            // The embedded engine (docs/architecture.md): storage/ keeps rows, semantics/ holds MongoDB's rules, execution/
            // runs pipelines over both; a fast path is an execution/ matter only.
            { target: './lib/engine/memory/storage', from: ['./lib/engine/memory/execution', './lib/engine/memory/semantics'], message: 'storage/ keeps rows and indexes: it knows no pipeline' },
            { target: './lib/engine/memory/semantics', from: ['./lib/engine/memory/execution', './lib/engine/memory/storage'], message: 'semantics/ is MongoDB\'s rules alone: no fast path, no storage' },
            { target: './lib/engine/memory/execution/fast-paths', from: ['./lib/engine/memory/execution/planner.ts', './lib/engine/memory/execution/registry.ts', './lib/engine/memory/execution/run-pipeline.ts', './lib/engine/memory/memory-engine.ts'], message: 'a fast path runs sub-pipelines with cx.compile (the planner\'s), never imports the planner or the registry' },
            { target: './lib/query', from: ['./lib/http', './lib/documents', './lib/pipeline', './lib/format', './lib/media'], message: 'query/ is pure and only reads schema/' },
            { target: './lib/pipeline', from: ['./lib/http', './lib/documents', './lib/format', './lib/media', './lib/auth'], message: 'pipeline/ is pure' },
            { target: './lib/format', from: ['./lib/http', './lib/documents', './lib/pipeline', './lib/media', './lib/auth'], message: 'format/ is pure' },
            { target: './lib/schema', from: ['./lib/http', './lib/documents', './lib/query', './lib/pipeline', './lib/format', './lib/media', './lib/auth', './lib/engine'], message: 'schema/ depends on nothing above it' },
            { target: './lib/documents', from: ['./lib/http'], message: 'documents/ never imports http/' },
            { target: './lib/media', from: ['./lib/http', './lib/documents'], message: 'media/ never imports http/ or documents/' },
            // options/ validates createContentRouter's options at the top (it reads schema/ and documents/ types):
            // only the composition root (lib/create-content-router.ts) and typegen/ import it.
            { target: BELOW_OPTIONS.map((name) => `./lib/${name}`), from: './lib/options', message: 'options/ is imported only by the composition root and typegen/' },
            { target: './lib/errors', from: ALL_BUT('errors'), message: 'errors/ is the bottom: it imports no other folder of lib/' },
          ],
        },
      ],
      ...restrict(['express'], DRIVERS),
    },
  },
  { files: ['lib/http/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': 'off' } },
  {
    files: ['lib/**/*.ts'],
    ignores: ['lib/engine/mongo/**', 'lib/http/**'],
    rules: restrict(['express', 'mongoose', 'mongodb'], DRIVERS),
  },
  {
    files: ['lib/**/*.ts'],
    ignores: ['lib/engine/memory/**', 'lib/http/**', 'lib/engine/mongo/**'],
    rules: restrict(['express', 'mongoose', 'mongodb', 'mingo'], DRIVERS),
  },
  {
    files: ['lib/engine/mongo/**/*.ts'],
    rules: restrict(['mingo', 'express'], DRIVERS),
  },
  {
    files: ['lib/engine/memory/**/*.ts'],
    rules: restrict(['mongoose', 'mongodb', 'express'], DRIVERS),
  },
];
