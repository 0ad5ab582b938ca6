import { ConfigurationError, exportStrapiExport, formatProgress, importStrapiExport, memoryEngine, mongoEngine, type TransferProgressEvent } from '../../lib';
import { loadBlogModel } from './model';
import { mongoOptionsFromEnv } from './mongo-from-env';

const USAGE = `usage: npm run data:import -- <file> [--key <key>] [--skip-unconfigured-locales]
       npm run data:export -- <file> [--key <key>] [--no-compress]

The example's data (the same store as npm start: DATA_FILE, default .data/content.db, or MONGODB_URI; the
files in UPLOADS_DIR, default .data/uploads) in Strapi's transfer format: strapi export writes what
data:import reads, and strapi import reads what data:export writes (docs/transfer.md). data:import needs an
empty store; with the embedded engine, npm start must be stopped (one process per data file). The example
serves en and fr: --skip-unconfigured-locales leaves out versions in other locales (the blog's Strapi export
has two in de) instead of refusing the file.`;

function progress(event: TransferProgressEvent): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\u001b[2K${formatProgress(event)}${event.done ? '\n' : ''}`);
  else if (event.done) process.stderr.write(`${formatProgress(event)}\n`);
}

/** `npm run data:import -- FILE` and `npm run data:export -- FILE`: the example's store in and out of Strapi's format. */
async function main(argv: readonly string[]): Promise<number> {
  const [command, file, ...rest] = argv;
  const key = rest.includes('--key') ? rest[rest.indexOf('--key') + 1] : undefined;
  if ((command !== 'import' && command !== 'export') || !file || (rest.includes('--key') && !key)) {
    console.error(USAGE);
    return 2;
  }
  const model = loadBlogModel();
  const mongo = mongoOptionsFromEnv(process.env);
  const dataFile = process.env.DATA_FILE ?? '.data/content.db';
  const engine = mongo ? mongoEngine(mongo) : memoryEngine({ file: dataFile });
  const target = {
    engine,
    contentTypes: model.contentTypes,
    components: model.components,
    i18n: { locales: model.permissions.locales.all, defaultLocale: model.permissions.locales.default },
    users: true, // the example app has auth.users: users, roles and their grants move with the data
  };
  const uploads = { directory: process.env.UPLOADS_DIR ?? '.data/uploads' };
  try {
    if (command === 'import') {
      const unconfiguredLocales = rest.includes('--skip-unconfigured-locales') ? 'skip' : 'error';
      const result = await importStrapiExport(target, file, { key, uploads, onProgress: progress, unconfiguredLocales });
      console.log(`imported ${file}: ${JSON.stringify(result.rows)}, ${result.assets} file(s); not stored: ${JSON.stringify(result.skipped)}`);
    } else {
      const result = await exportStrapiExport(target, file, { key, uploads, gzip: !rest.includes('--no-compress'), onProgress: progress });
      console.log(`exported ${JSON.stringify(result.rows)}, ${result.assets} file(s) to ${file}`);
    }
    return 0;
  } catch (error) {
    if (error instanceof ConfigurationError && error.code === 'CR_DATA_FILE_LOCKED') {
      console.error(`data:${command}: the example app is running on ${dataFile}: stop npm start first (the embedded engine has one process per data file).\n${error.message}`);
    } else console.error(`data:${command}: ${(error as Error).message}`);
    return 1;
  } finally {
    await engine.close().catch(() => undefined);
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
