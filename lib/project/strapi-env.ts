/** The environment variables a Strapi project's config files read (`.env` and the process's). */
export type EnvVariables = Readonly<Record<string, string | undefined>>;

/**
 * Strapi's `env` helper (`@strapi/utils` env-helper), given to config files as `({ env })`: `env(key, default)`
 * answers the variable as a string, or the default when the variable is not set (an empty value is set);
 * `env.int`, `env.float`, `env.bool` (`'true'` only), `env.json`, `env.array` (`[a, "b"]` or `a,b`), `env.date`
 * and `env.oneOf` convert it the same way.
 */
export interface StrapiEnv {
  <T = undefined>(key: string, defaultValue?: T): string | T;
  int(key: string, defaultValue?: number): number | undefined;
  float(key: string, defaultValue?: number): number | undefined;
  bool(key: string, defaultValue?: boolean): boolean | undefined;
  json(key: string, defaultValue?: unknown): unknown;
  array(key: string, defaultValue?: string[]): string[] | undefined;
  date(key: string, defaultValue?: Date): Date | undefined;
  oneOf(key: string, expectedValues: readonly unknown[], defaultValue?: unknown): unknown;
}

/** Strips `chars` from both ends of `text` (lodash's `_.trim(text, chars)`). */
function trimChars(text: string, chars: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start]!)) start++;
  while (end > start && chars.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/**
 * Strapi's `env` helper over `variables` instead of `process.env`.
 *
 * @example
 * const env = createStrapiEnv({ PORT: '8080' });
 * env.int('PORT', 1337); // 8080
 */
export function createStrapiEnv(variables: EnvVariables): StrapiEnv {
  const has = (key: string): boolean => Object.hasOwn(variables, key) && variables[key] !== undefined;
  const raw = (key: string): string => variables[key] ?? '';
  const env = (<T>(key: string, defaultValue?: T): string | T | undefined => (has(key) ? raw(key) : defaultValue)) as StrapiEnv;
  env.int = (key, defaultValue) => (has(key) ? parseInt(raw(key), 10) : defaultValue);
  env.float = (key, defaultValue) => (has(key) ? parseFloat(raw(key)) : defaultValue);
  env.bool = (key, defaultValue) => (has(key) ? raw(key) === 'true' : defaultValue);
  env.json = (key, defaultValue) => {
    if (!has(key)) return defaultValue;
    try {
      return JSON.parse(raw(key)) as unknown;
    } catch (error) {
      throw new Error(`Invalid json environment variable ${key}: ${(error as Error).message}`);
    }
  };
  env.array = (key, defaultValue) => {
    if (!has(key)) return defaultValue;
    let value = raw(key);
    if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
    return value.split(',').map((v) => trimChars(trimChars(v, ' '), '"'));
  };
  env.date = (key, defaultValue) => (has(key) ? new Date(raw(key)) : defaultValue);
  env.oneOf = (key, expectedValues, defaultValue) => {
    if (!expectedValues) throw new Error('env.oneOf requires expectedValues');
    if (defaultValue && !expectedValues.includes(defaultValue)) throw new Error('env.oneOf requires defaultValue to be included in expectedValues');
    const value = env(key, defaultValue);
    return expectedValues.includes(value) ? value : defaultValue;
  };
  return env;
}
