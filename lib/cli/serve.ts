import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Express } from 'express';
import { createContentRouter, type ContentRouter, type ContentRouterOptions } from '../create-content-router';
import type { Engine } from '../engine';
import { memoryEngine } from '../engine/memory/memory-engine';
import { mongoEngine } from '../engine/mongo/mongo-engine';
import { ConfigurationError } from '../errors';
import { answerClientErrors } from '../http/answer-client-errors';
import { createProjectApp } from '../http/project-app';
import { checkAdminBuilt } from '../http/create-admin';
import { loadStrapiProject, type StrapiProject } from '../project';
import { mergeConfig } from '../project/merge-config';
import { isPlainObject } from '../project/project-note';
import { formatProgress, importStrapiExport, type TransferProgressEvent } from '../transfer';
import { readExportLocales, readKeptLocales } from '../transfer/read-locales';

export const SERVE_USAGE = `usage: content-router serve <project-dir> [--import <export-file> [--key <key>]] [--options <file.json>] [--admin]

Serves a Strapi 5 project folder's REST API (docs/strapi-projects.md): its schema files, components, user
extension, config/ (api, plugins, middlewares, server) and .env, at the prefix of config/api (/api).
  --import    a strapi export (.tar, .tar.gz, .tar.gz.enc with --key) imported into the empty store at start:
              the content, media files, locales, users, roles and the Public role's grants
  --key       the export's encryption key (strapi export --key)
  --options   createContentRouter options as JSON, merged over the project's (auth.apiTokens, auth.public, i18n...)
  --admin     the built-in admin at /admin (docs/admin.md): log in as a users-permissions user or with an API token
Environment (the project's .env included): PORT (default: config/server, else 1337), HOST,
  MONGODB_URI (MONGODB_TRANSACTIONS=false for a standalone server), else the embedded engine's DATA_FILE
  (default <project-dir>/.tmp/content-router.db). Ctrl-C or SIGTERM closes the store and exits.`;

/** Where the command writes (the process's by default). */
export interface ServeIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIo: ServeIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };

/** The store: MongoDB at `MONGODB_URI`, or the embedded engine's data file in the project's `.tmp/` (as Strapi's SQLite). */
function storeOf(project: StrapiProject): { describe: string; open(): Engine } {
  const uri = process.env.MONGODB_URI;
  if (uri) return { describe: 'MongoDB (MONGODB_URI)', open: () => mongoEngine({ uri, ...(process.env.MONGODB_TRANSACTIONS === 'false' ? { transactions: false } : {}) }) };
  const file = path.resolve(project.dir, process.env.DATA_FILE ?? path.join('.tmp', 'content-router.db'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return { describe: file, open: () => memoryEngine({ file }) };
}

/** `--options <file.json>`: createContentRouter options as a JSON object. */
function readJsonOptions(file: string | undefined): Record<string, unknown> {
  if (file === undefined) return {};
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`--options ${file}: ${(error as Error).message}`);
  }
  if (!isPlainObject(json)) throw new Error(`--options ${file}: expected a JSON object of createContentRouter options ({ "auth": { ... } })`);
  return json;
}

/** The locales: from the options, else from the export to import, else from what an earlier import kept. */
async function localesOf(options: ContentRouterOptions, store: { open(): Engine }, importFile: string | undefined, key: string | undefined): Promise<ContentRouterOptions['i18n']> {
  if (options.i18n !== undefined) return options.i18n;
  if (importFile !== undefined) return readExportLocales(importFile, { key });
  const engine = store.open();
  try {
    await engine.init([]);
    return await readKeptLocales(engine);
  } finally {
    await engine.close();
  }
}

/** Listens, or rejects at once with the reason (Express 5 passes a listen error to the callback). */
function listen(app: Express, port: number, host: string | undefined): Promise<Server> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error): void => (error ? reject(error) : resolve(server));
    const server = host === undefined ? app.listen(port, done) : app.listen(port, host, done);
  });
}

/** The port: config/server's, else `PORT`, else Strapi's 1337. */
function portOf(project: StrapiProject): number {
  const port = project.server.port ?? (process.env.PORT === undefined || process.env.PORT === '' ? 1337 : Number(process.env.PORT));
  if (!Number.isSafeInteger(port) || port < 0 || port > 65535) throw new Error(`the port ${JSON.stringify(process.env.PORT ?? port)} is not a port number (0 to 65535)`);
  return port;
}

function describeNotTakenOver(project: StrapiProject): string {
  if (project.notTakenOver.length === 0) return '';
  const lines = project.notTakenOver.map((n) => `  ${n.file}: ${n.what}\n      instead: ${n.instead}\n`);
  return `content-router serve: not taken over from the project (${project.notTakenOver.length}):\n${lines.join('')}`;
}

/** Ctrl-C / SIGTERM: stop taking connections, let the requests in flight end, stop the webhooks, close the engine. */
function closeOnSignals(server: Server, router: ContentRouter, io: ServeIo): Promise<number> {
  return new Promise((resolve) => {
    let closing = false;
    const shutdown = (signal: NodeJS.Signals): void => {
      if (closing) process.exit(1); // a second signal: the journal keeps every acknowledged write
      closing = true;
      io.stdout(`content-router serve: ${signal}, closing\n`);
      server.close(() => {
        process.off('SIGINT', shutdown);
        process.off('SIGTERM', shutdown);
        router.webhooks.stop().then(() => router.engine.close()).then(
          () => resolve(0),
          (error: unknown) => (io.stderr(`content-router serve: ${(error as Error).message}\n`), resolve(1)),
        );
      });
      server.closeIdleConnections();
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
  });
}

interface ServeArgs {
  readonly dir: string;
  readonly importFile?: string;
  readonly key?: string;
  readonly options?: string;
  readonly admin?: boolean;
}

/** The command line, or the exit code when it is a usage error (2) or `--help` (0). */
function parseServeArgs(args: readonly string[], io: ServeIo): ServeArgs | number {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, options: { import: { type: 'string' }, key: { type: 'string' }, options: { type: 'string' }, admin: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    io.stderr(`content-router serve: ${(error as Error).message}\n\n${SERVE_USAGE}\n`);
    return 2;
  }
  if (parsed.values.help) return (io.stdout(`${SERVE_USAGE}\n`), 0);
  const [dir, ...extra] = parsed.positionals;
  const problem = dir === undefined || extra.length > 0 ? 'give one <project-dir>' : parsed.values.key !== undefined && parsed.values.import === undefined ? '--key goes with --import' : undefined;
  if (problem) return (io.stderr(`content-router serve: ${problem}\n\n${SERVE_USAGE}\n`), 2);
  return { dir: dir!, importFile: parsed.values.import, key: parsed.values.key, options: parsed.values.options, admin: parsed.values.admin };
}

/** `--import`: the export into the router's empty store, its files into the project's uploads. */
async function importInto(router: ContentRouter, project: StrapiProject, source: { file: string; key?: string }, io: ServeIo): Promise<void> {
  const onProgress = (e: TransferProgressEvent): void => void (e.done && io.stdout(`${formatProgress(e)}\n`));
  const result = await importStrapiExport(router, source.file, { key: source.key, uploads: { directory: project.uploadsDir }, onProgress });
  const rows = Object.entries(result.rows).map(([uid, n]) => `${uid} ${n}`).join(', ');
  io.stdout(`content-router serve: imported ${source.file}: ${rows}; ${result.assets} file(s)\n`);
}

/**
 * Waits for the router's first start-up. A configuration the store refuses (`CR_DATA_FILE_LOCKED`,
 * `CR_NO_TRANSACTIONS`), or any failure when an import waits, is thrown (the command stops); a store that cannot be
 * reached yet answers false: the API answers 503 and the router retries, as an app in production does.
 */
async function started(router: ContentRouter, canWait: boolean, io: ServeIo): Promise<boolean> {
  try {
    await router.ready;
    return true;
  } catch (error) {
    if (!canWait || error instanceof ConfigurationError) throw error;
    io.stderr('content-router serve: the store cannot be reached yet (the cause is logged above): the API answers 503 until it can, retried on requests\n');
    return false;
  }
}

/**
 * `content-router serve <project-dir>`: a Strapi project folder served as Strapi serves its REST API, until
 * SIGINT or SIGTERM. Resolves the exit code: 0 after a clean shutdown, 1 when it cannot start (a port in use, a
 * project that does not load, a failed import), 2 (usage).
 *
 * @example
 * process.exitCode = await runServe(['../my-strapi-app', '--import', 'export.tar.gz']);
 */
export async function runServe(args: readonly string[], io: ServeIo = processIo): Promise<number> {
  const parsed = parseServeArgs(args, io);
  if (typeof parsed === 'number') return parsed;
  const { dir, importFile, key } = parsed;
  let server: Server | undefined;
  let router: ContentRouter | undefined;
  try {
    if (parsed.admin) checkAdminBuilt(); // before the port and the store are taken
    const envFile = path.join(dir, '.env');
    if (fs.existsSync(envFile)) process.loadEnvFile(envFile); // as Strapi: the variables already set win
    const project = await loadStrapiProject(dir);
    const { cors, ...options } = mergeConfig(project.options, readJsonOptions(parsed.options), 'replace') as ContentRouterOptions;
    const store = storeOf(project);
    const { app, mount } = createProjectApp();
    server = await listen(app, portOf(project), project.server.host ?? process.env.HOST);
    answerClientErrors(server);
    const i18n = await localesOf(options, store, importFile, key);
    router = createContentRouter({ ...options, ...(i18n ? { i18n } : {}), engine: store.open() });
    const state = { importing: importFile !== undefined };
    mount(router, { prefix: project.prefix, uploadsDir: project.uploadsDir, cors, state, ...(parsed.admin ? { admin: {} } : {}) });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : portOf(project);
    io.stdout(`content-router serve: ${project.dir} on http://localhost:${port}${project.prefix} (store: ${store.describe})${parsed.admin ? `, the admin on http://localhost:${port}/admin/` : ''}\n`);
    io.stderr(describeNotTakenOver(project));
    const closed = closeOnSignals(server, router, io);
    if (!(await started(router, importFile === undefined, io))) return await closed;
    if (importFile !== undefined) await importInto(router, project, { file: importFile, key }, io);
    state.importing = false;
    io.stdout(`content-router serve: ready on http://localhost:${port}${project.prefix}\n`);
    return await closed;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const message = e.code === 'EADDRINUSE' ? `the port ${(e as { port?: number }).port ?? ''} is already in use (PORT sets another)` : e.message;
    io.stderr(`content-router serve: ${message}\n`);
    server?.close();
    server?.closeAllConnections();
    await router?.engine.close().catch(() => undefined);
    return 1;
  }
}
