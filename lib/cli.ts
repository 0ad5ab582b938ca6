#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
import { runDataFileCommand } from './cli/data-file';
import { runHashToken } from './cli/hash-token';
import { runServe } from './cli/serve';
import { runTransferCommand } from './cli/transfer';
import { generateTypes } from './typegen/generate-types';
import { readCustomFields } from './typegen/read-custom-fields';
import { readComponentSchemas, readContentTypeSchemas, readUsersExtension } from './typegen/read-schemas';
import { usersHint } from './typegen/users-types';

/** The commands other than `types`, each in its own file under cli/: `content-router <command> [args]`. */
const COMMANDS: Readonly<Record<string, (args: readonly string[]) => number | Promise<number>>> = {
  'hash-token': (args) => runHashToken(args),
  verify: (args) => runDataFileCommand('verify', args),
  repair: (args) => runDataFileCommand('repair', args),
  backup: (args) => runDataFileCommand('backup', args),
  import: (args) => runTransferCommand('import', args),
  export: (args) => runTransferCommand('export', args),
  serve: (args) => runServe(args),
};

const USAGE = `usage: content-router types --schemas <dir|file>... [--components <dir>] --out <file> [--module <name>]
                            [--custom-field <uid>=<type>...] [--custom-fields <file.json>]
                            [--users] [--users-extension <schema.json>]

Writes TypeScript declarations of every content type and component (docs/types.md).
  --schemas        schema.json files, or folders searched for .json files (e.g. src/api)
  --components     a components folder: <dir>/<category>/<name>.json (e.g. src/components)
  --out            the file written (e.g. types/content-router.d.ts)
  --module         the module the uid maps augment (default content-router)
  --custom-field   what a custom field stores, e.g. plugin::color-picker.color=string (repeatable)
  --custom-fields  a JSON file of the customFields option: { "plugin::color-picker.color": { "type": "string" } }
  --users          the users-permissions plugin's types (auth.users): UsersPermissionsUser, ...; implied by a
                   relation to plugin::users-permissions.user and by --users-extension
  --users-extension  the project's user extension: src/extensions/users-permissions/content-types/user/schema.json

Other commands (each with --help):
  content-router hash-token     hash an API token's access key, or generate one (docs/security.md)
  content-router verify         check the embedded engine's data file (docs/production.md)
  content-router repair         repair it (a torn journal tail) and compact it
  content-router backup         copy it consistently, also while the app runs
  content-router import         import a Strapi export (strapi export's .tar, .tar.gz, .enc) into an empty store
  content-router export         export the store in Strapi's format (strapi import reads it; docs/transfer.md)
  content-router serve          serve a Strapi project folder: content types, config/, .env (docs/strapi-projects.md)`;

/** `--flag value...` to a map of the values of each flag. */
function parseFlags(args: readonly string[]): Map<string, string[]> {
  const flags = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const arg of args) {
    if (arg.startsWith('--')) {
      current = flags.get(arg.slice(2)) ?? [];
      flags.set(arg.slice(2), current);
    } else if (current) current.push(arg);
    else throw new Error(`unexpected argument ${JSON.stringify(arg)}`);
  }
  for (const name of flags.keys()) {
    if (!['schemas', 'components', 'out', 'module', 'custom-field', 'custom-fields', 'users', 'users-extension', 'help'].includes(name)) throw new Error(`unknown option --${name}`);
  }
  return flags;
}

/**
 * The `content-router` command: `content-router types --schemas src/api --components src/components --out types/content.d.ts`.
 * Returns the exit code.
 *
 * @example
 * process.exitCode = runCli(process.argv.slice(2));
 */
export function runCli(argv: readonly string[]): number | Promise<number> {
  const [command, ...rest] = argv;
  const other = command === undefined ? undefined : COMMANDS[command];
  if (other) return other(rest);
  if (command !== 'types') {
    process.stderr.write(`${USAGE}\n`);
    return command === undefined || command === '--help' ? 0 : 2;
  }
  try {
    const flags = parseFlags(rest);
    if (flags.has('help')) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const schemas = flags.get('schemas') ?? [];
    const [out] = flags.get('out') ?? [];
    if (schemas.length === 0 || !out) throw new Error('--schemas and --out are required');
    const [componentsDir] = flags.get('components') ?? [];
    const [moduleName] = flags.get('module') ?? [];
    const customFields = readCustomFields(flags.get('custom-fields') ?? [], flags.get('custom-field') ?? []);
    const [extension, ...more] = flags.get('users-extension') ?? [];
    if (flags.has('users-extension') && (!extension || more.length > 0)) throw new Error('--users-extension takes one file');
    if ((flags.get('users') ?? []).length > 0) throw new Error(`--users takes no value: ${JSON.stringify(flags.get('users')![0])}`);
    const users = extension ? { userSchema: readUsersExtension(extension) } : flags.has('users') || undefined;
    const text = generateTypes({ contentTypes: readContentTypeSchemas(schemas), components: componentsDir ? readComponentSchemas(componentsDir) : {}, customFields, users, moduleName });
    fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    fs.writeFileSync(out, text);
    process.stdout.write(`content-router: wrote ${out}\n`);
    return 0;
  } catch (err) {
    const hint = (err as { code?: unknown }).code === 'CR_UNKNOWN_CUSTOM_FIELD' ? '\nSay it here with --custom-field <uid>=<type> (or --custom-fields <file.json>).' : rest.includes('--users-extension') ? '' : usersHint(err);
    process.stderr.write(`content-router types: ${(err as Error).message}${hint}\n\n${USAGE}\n`);
    return 1;
  }
}

if (require.main === module) {
  void Promise.resolve(runCli(process.argv.slice(2))).then((code) => {
    process.exitCode = code;
  });
}
