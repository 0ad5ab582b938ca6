import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import type { Engine } from '../engine';
import { memoryEngine } from '../engine/memory/memory-engine';
import { dataFileExists, noDataFile } from '../engine/memory/storage/data-file-tools';
import { mongoEngine } from '../engine/mongo/mongo-engine';
import { exportStrapiExport, formatProgress, importStrapiExport, type ModelTarget, type TransferProgressEvent } from '../transfer';
import { readComponentSchemas, readContentTypeSchemas } from '../typegen/read-schemas';

export const TRANSFER_USAGE = `usage: content-router import <file> <model> <store> [--key <key>] [--skip-unconfigured-locales]
       content-router export <file> <model> <store> [--key <key>] [--no-compress]

Moves data in and out in Strapi's own transfer format (strapi export / strapi import; docs/transfer.md).
  import        reads <file> (.tar, .tar.gz, .tar.gz.enc) into an empty store; checks everything first, writes
                nothing when the export does not fit the model; all or nothing: a failure or SIGINT takes back what
                it wrote (exit 130 on a signal), and an import stopped by a crash is rolled back by the next one
  export        writes the store to <file> (gzip unless --no-compress; encrypted with --key)
<model>, as for content-router types:
  --schemas     content type schema.json files, or folders searched for .json files (e.g. src/api)
  --components  a components folder: <dir>/<category>/<name>.json (e.g. src/components)
  --locales     the configured locales, comma-separated (default en); --default-locale (default: the first)
  --users       the app has auth.users: users (bcrypt hashes unchanged), roles and their grants move too;
                without it they are kept aside as they came. --user-schema <file>: the project's extension of
                the user type (src/extensions/users-permissions/content-types/user/schema.json)
<store>:
  --data-file   the embedded engine's data file (the app must be stopped: one writer per data file)
  --mongodb-uri a MongoDB replica set (the app may run; the import needs an empty database)
  --uploads     the uploads folder (the local provider's upload.directory)
  --key         Strapi's encryption key (strapi export --key)
  --skip-unconfigured-locales   leave out the versions in locales --locales does not list (default: refuse them)`;

/** Where the command writes (the process's by default; tests pass their own). */
export interface TransferIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readonly stderrIsTTY: boolean;
}

const processIo: TransferIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  get stderrIsTTY() {
    return process.stderr.isTTY === true;
  },
};

const OPTIONS = {
  schemas: { type: 'string', multiple: true },
  components: { type: 'string' },
  locales: { type: 'string' },
  'default-locale': { type: 'string' },
  users: { type: 'boolean' },
  'user-schema': { type: 'string' },
  'data-file': { type: 'string' },
  'mongodb-uri': { type: 'string' },
  uploads: { type: 'string' },
  key: { type: 'string' },
  'no-compress': { type: 'boolean' },
  'skip-unconfigured-locales': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A progress line that rewrites itself on a terminal; one line per stage otherwise (logs, CI). */
function progressWriter(io: TransferIo): (event: TransferProgressEvent) => void {
  return (event) => {
    if (io.stderrIsTTY) io.stderr(`\r\u001b[2K${formatProgress(event)}${event.done ? '\n' : ''}`);
    else if (event.done) io.stderr(`${formatProgress(event)}\n`);
  };
}

/** `--users` and `--user-schema`: the users-permissions types of the model (a user schema implies `--users`). */
function usersOf(values: { users?: boolean; 'user-schema'?: string }): Pick<ModelTarget, 'users'> {
  const file = values['user-schema'];
  if (file === undefined) return values.users ? { users: true } : {};
  let userSchema: { attributes?: Record<string, unknown> };
  try {
    userSchema = JSON.parse(readFileSync(file, 'utf8')) as { attributes?: Record<string, unknown> };
  } catch (error) {
    throw new Error(`--user-schema ${file}: ${(error as Error).message}`);
  }
  return { users: { userSchema } };
}

function engineOf(values: { 'data-file'?: string; 'mongodb-uri'?: string }): Engine {
  if (values['data-file'] && values['mongodb-uri']) throw new Error('give --data-file or --mongodb-uri, not both');
  if (values['mongodb-uri']) return mongoEngine({ uri: values['mongodb-uri'] });
  if (values['data-file']) return memoryEngine({ file: values['data-file'] });
  throw new Error('give the store: --data-file <file> (embedded engine) or --mongodb-uri <uri>');
}

/**
 * Before an export opens the store: a `--data-file` that does not exist is a mistyped path (opening it would
 * create an empty store and export nothing), and the archive's folder is created when missing (as `backup` does).
 */
async function checkExportPaths(file: string, dataFile: string | undefined): Promise<void> {
  if (dataFile !== undefined && !(await dataFileExists(dataFile))) throw new Error(`--data-file: ${noDataFile(dataFile)}`);
  await mkdir(dirname(file), { recursive: true });
}

/**
 * Runs an import with SIGINT and SIGTERM turned into `controller`'s abort: the import stops between two rows or
 * files and takes back what it wrote (exit code 130). A second signal ends the process at once: the import's
 * marker stays in the store, and the next import rolls it back.
 */
async function whileInterruptible<T>(io: TransferIo, controller: AbortController, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      io.stderr(`content-router import: ${signal} again: stopping now; the next import rolls back what was written\n`);
      process.exit(130);
    }
    io.stderr(`\ncontent-router import: ${signal}: stopping, and taking back what was written (${signal} again to stop at once)\n`);
    controller.abort(new Error(signal));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await run(controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * `content-router import|export <file>`: Strapi's transfer format in and out of a store given by its model
 * (`--schemas`, `--components`, `--locales`) and engine (`--data-file` or `--mongodb-uri`). Resolves the exit code:
 * 0, 1 (failed: the reason on stderr), 2 (usage), 130 (an import stopped by SIGINT or SIGTERM, and rolled back).
 *
 * @example
 * process.exitCode = await runTransferCommand('import', ['export.tar.gz', '--schemas', 'src/api', '--data-file', 'data/content.db', '--uploads', 'public/uploads']);
 */
export async function runTransferCommand(command: 'import' | 'export', args: readonly string[], io: TransferIo = processIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, options: OPTIONS });
  } catch (error) {
    io.stderr(`content-router ${command}: ${(error as Error).message}\n\n${TRANSFER_USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(`${TRANSFER_USAGE}\n`);
    return 0;
  }
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0 || !values.schemas?.length || !values.uploads) {
    io.stderr(`content-router ${command}: give one <file>, --schemas and --uploads\n\n${TRANSFER_USAGE}\n`);
    return 2;
  }
  let engine: Engine | undefined;
  const interrupt = new AbortController();
  try {
    if (command === 'export') await checkExportPaths(file, values['data-file']);
    engine = engineOf(values);
    const locales = (values.locales ?? 'en').split(',').map((l) => l.trim()).filter(Boolean);
    const target: ModelTarget = {
      engine,
      contentTypes: readContentTypeSchemas(values.schemas),
      components: values.components ? readComponentSchemas(values.components) : {},
      i18n: { locales, defaultLocale: values['default-locale'] ?? locales[0] },
      ...usersOf(values),
    };
    const onProgress = progressWriter(io);
    if (command === 'import') {
      const unconfiguredLocales = values['skip-unconfigured-locales'] ? 'skip' : 'error';
      const result = await whileInterruptible(io, interrupt, (signal) => importStrapiExport(target, file, { key: values.key, uploads: { directory: values.uploads }, onProgress, unconfiguredLocales, signal }));
      if (result.recovered) io.stderr(`content-router import: ${result.recovered}\n`);
      const rows = Object.entries(result.rows).map(([uid, n]) => `${uid} ${n}`).join(', ');
      io.stdout(`content-router: imported ${file}: ${rows}; ${result.assets} file(s)\n`);
    } else {
      const result = await exportStrapiExport(target, file, { key: values.key, gzip: !values['no-compress'], uploads: { directory: values.uploads }, onProgress });
      const rows = Object.values(result.rows).reduce((a, b) => a + b, 0);
      io.stdout(`content-router: exported ${rows} row(s), ${result.assets} file(s), ${result.links} link(s) to ${file}\n`);
    }
    return 0;
  } catch (error) {
    io.stderr(`content-router ${command}: ${(error as Error).message}\n`);
    return interrupt.signal.aborted ? 130 : 1;
  } finally {
    await engine?.close().catch(() => undefined);
  }
}
