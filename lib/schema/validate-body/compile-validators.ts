import Ajv, { type ValidateFunction } from 'ajv';
import type { ContentType, Registry } from '../types';
import { ANNOTATION, VARIANTS, variantKey } from './annotation';
import { componentSchemaId, modelSchema } from './model-schema';

interface RegistryCache {
  readonly ajv: Ajv;
  /** Compiled validators of each content type, by variant key. */
  readonly types: Map<string, ReadonlyMap<string, ValidateFunction>>;
}

/** ajv flags `unicode: false` as deprecated (it still works and is what we need): keep its other warnings. */
function warnExceptDeprecation(...args: unknown[]): void {
  if (!String(args[0]).startsWith('DEPRECATED')) console.warn(...args);
}

const caches = new WeakMap<Registry, RegistryCache>();

/**
 * One ajv instance per registry, holding every component's schema (4 variants each) so that types share
 * them. `unicode: false` counts string length in UTF-16 units and `unicodeRegExp: false` compiles patterns
 * without the `u` flag: both as JavaScript (and so yup, and so Strapi) do.
 */
function registryCache(registry: Registry): RegistryCache {
  const existing = caches.get(registry);
  if (existing) return existing;
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    useDefaults: true,
    strict: false,
    unicode: false,
    unicodeRegExp: false,
    logger: { log: () => undefined, warn: warnExceptDeprecation, error: (...args: unknown[]) => console.error(...args) },
  });
  ajv.addKeyword({ keyword: ANNOTATION, schemaType: 'object' });
  for (const component of registry.components.values()) {
    for (const v of VARIANTS) {
      const schema = modelSchema(registry, component.attributes, component.attributeNames, v);
      ajv.addSchema({ ...schema, $id: componentSchemaId(component.uid, v) });
    }
  }
  const cache: RegistryCache = { ajv, types: new Map() };
  caches.set(registry, cache);
  return cache;
}

/**
 * The compiled body validators of a content type, one per variant (create/update x published/draft).
 * Compiled on first use for a (registry, type) pair and reused by every later call.
 */
export function compileTypeValidators(registry: Registry, owner: ContentType): ReadonlyMap<string, ValidateFunction> {
  const cache = registryCache(registry);
  const known = cache.types.get(owner.uid);
  if (known) return known;
  const compiled = new Map<string, ValidateFunction>();
  for (const v of VARIANTS) {
    compiled.set(variantKey(v), cache.ajv.compile(modelSchema(registry, owner.attributes, owner.attributeNames, v)));
  }
  cache.types.set(owner.uid, compiled);
  return compiled;
}
