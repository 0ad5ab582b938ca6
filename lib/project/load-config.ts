import fs from 'node:fs';
import path from 'node:path';
import { createJiti } from 'jiti';
import type { StrapiEnv } from './strapi-env';
import { mergeConfig } from './merge-config';

/** The config files `loadStrapiProject` reads (Strapi's names): the others (database, features, ...) are not used. */
export const CONFIG_NAMES = ['admin', 'api', 'middlewares', 'plugins', 'server'] as const;
export type ConfigName = (typeof CONFIG_NAMES)[number];

/** A JavaScript project has `.js` files (CommonJS or ESM), a TypeScript one `.ts`; JSON is read as JSON. */
const EXTENSIONS = ['.js', '.cjs', '.mjs', '.ts', '.cts', '.mts', '.json'];

/** The file of one config name in `dir`, or undefined. */
function configFile(dir: string, name: string): string | undefined {
  for (const extension of EXTENSIONS) {
    const file = path.join(dir, `${name}${extension}`);
    if (fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return file;
  }
  return undefined;
}

/**
 * Loads config modules with jiti (TypeScript, ESM and CommonJS alike, without a build), nothing cached between
 * calls, nothing written to disk. A module exporting a function is called with `{ env }`, as Strapi's loader does.
 */
async function loadConfigFile(file: string, env: StrapiEnv): Promise<unknown> {
  try {
    if (file.endsWith('.json')) return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    const jiti = createJiti(file, { moduleCache: false, fsCache: false });
    const exported = await jiti.import<unknown>(file, { default: true });
    return typeof exported === 'function' ? await (exported as (arg: { env: StrapiEnv }) => unknown)({ env }) : exported;
  } catch (error) {
    throw new Error(`could not load the config file ${file}: ${(error as Error).message}`);
  }
}

/**
 * The settings of a Strapi project's `config/` folder that the router uses (`admin`, `api`, `middlewares`, `plugins`,
 * `server`), with those of `config/env/<NODE_ENV>/` merged over them as Strapi merges them (lodash `merge`).
 *
 * @example
 * const config = await loadStrapiConfig('my-project/config', createStrapiEnv(process.env), 'production');
 * config.api; // { rest: { defaultLimit: 25, maxLimit: 100 } }
 */
export async function loadStrapiConfig(configDir: string, env: StrapiEnv, nodeEnv: string): Promise<Partial<Record<ConfigName, unknown>>> {
  const config: Partial<Record<ConfigName, unknown>> = {};
  for (const name of CONFIG_NAMES) {
    for (const dir of [configDir, path.join(configDir, 'env', nodeEnv)]) {
      const file = configFile(dir, name);
      if (file !== undefined) config[name] = mergeConfig(config[name], await loadConfigFile(file, env));
    }
  }
  return config;
}

/** The config file of `name` in the project's `config/` folder, relative to the project (for messages). */
export function configFileName(projectDir: string, name: ConfigName): string {
  const file = configFile(path.join(projectDir, 'config'), name);
  return file ? path.relative(projectDir, file) : `config/${name}.js`;
}
