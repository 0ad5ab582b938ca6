import { ConfigurationError } from '../errors';
import type { Attribute, RelationKind, ScalarType } from './types';

const SCALAR_TYPES: ReadonlySet<string> = new Set<ScalarType>([
  'string', 'text', 'richtext', 'blocks', 'email', 'password', 'uid', 'integer', 'biginteger', 'float',
  'decimal', 'boolean', 'date', 'time', 'datetime', 'timestamp', 'json', 'enumeration',
]);
const RELATION_KINDS: ReadonlySet<string> = new Set<RelationKind>([
  'oneToOne', 'oneToMany', 'manyToOne', 'manyToMany', 'oneWay', 'manyWay',
]);
const TO_MANY: ReadonlySet<string> = new Set(['oneToMany', 'manyToMany', 'manyWay']);

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * Turns one attribute of a schema.json into its normalized form. `owner` names the type or component (for
 * error messages); `typeLocalized` says whether the owning type is localized.
 */
export function normalizeAttribute(
  owner: string,
  name: string,
  raw: Record<string, unknown>,
  typeLocalized: boolean,
): Attribute {
  const where = `${owner}.${name}`;
  const i18n = (raw.pluginOptions as { i18n?: { localized?: unknown } } | undefined)?.i18n;
  const base = {
    name,
    required: raw.required === true,
    private: raw.private === true || raw.type === 'password',
    localized: typeLocalized && i18n?.localized !== false,
    system: false,
    raw,
  };
  const type = String(raw.type);
  if (SCALAR_TYPES.has(type)) {
    if (type === 'enumeration' && (!Array.isArray(raw.enum) || raw.enum.some((v) => typeof v !== 'string'))) {
      throw new ConfigurationError('CR_INVALID_SCHEMA', `${where}: an enumeration needs an "enum" array of strings`);
    }
    if (raw.regex !== undefined) {
      try {
        new RegExp(String(raw.regex));
      } catch {
        throw new ConfigurationError('CR_INVALID_SCHEMA', `${where}: "regex" is not a valid regular expression`);
      }
    }
    return {
      ...base,
      kind: 'scalar',
      type: type as ScalarType,
      unique: raw.unique === true,
      default: raw.default,
      minLength: num(raw.minLength),
      maxLength: num(raw.maxLength),
      min: num(raw.min),
      max: num(raw.max),
      regex: typeof raw.regex === 'string' ? raw.regex : undefined,
      enum: Array.isArray(raw.enum) ? (raw.enum as string[]) : undefined,
      targetField: typeof raw.targetField === 'string' ? raw.targetField : undefined,
    };
  }
  switch (type) {
    case 'media':
      return {
        ...base,
        kind: 'media',
        multiple: raw.multiple === true,
        allowedTypes: Array.isArray(raw.allowedTypes) ? (raw.allowedTypes as string[]) : null,
        target: 'plugin::upload.file',
      };
    case 'relation':
      return normalizeRelation(where, base, raw);
    case 'component':
      if (typeof raw.component !== 'string') {
        throw new ConfigurationError('CR_INVALID_SCHEMA', `${where}: a component attribute needs "component"`);
      }
      return { ...base, kind: 'component', component: raw.component, repeatable: raw.repeatable === true, min: num(raw.min), max: num(raw.max) };
    case 'dynamiczone':
      if (!Array.isArray(raw.components) || raw.components.some((c) => typeof c !== 'string')) {
        throw new ConfigurationError('CR_INVALID_SCHEMA', `${where}: a dynamic zone needs a "components" array`);
      }
      return { ...base, kind: 'dynamiczone', components: raw.components as string[], min: num(raw.min), max: num(raw.max) };
    default:
      throw new ConfigurationError('CR_UNKNOWN_ATTRIBUTE_TYPE', `${where}: unknown attribute type "${type}"`);
  }
}

function normalizeRelation(
  where: string,
  base: Omit<Attribute, 'kind'> & { name: string },
  raw: Record<string, unknown>,
): Attribute {
  const relation = String(raw.relation);
  if (/^morph/.test(relation)) {
    throw new ConfigurationError('CR_MORPH_RELATION', `${where}: polymorphic relations ("${relation}") are not supported`);
  }
  if (!RELATION_KINDS.has(relation)) {
    throw new ConfigurationError('CR_INVALID_SCHEMA', `${where}: unknown relation kind "${relation}"`);
  }
  if (typeof raw.target !== 'string') {
    throw new ConfigurationError('CR_INVALID_SCHEMA', `${where}: a relation needs a "target"`);
  }
  const inversedBy = typeof raw.inversedBy === 'string' ? raw.inversedBy : undefined;
  const mappedBy = typeof raw.mappedBy === 'string' ? raw.mappedBy : undefined;
  if (inversedBy && mappedBy) {
    throw new ConfigurationError('CR_RELATION_MISMATCH', `${where}: a relation cannot have both inversedBy and mappedBy`);
  }
  return {
    ...base,
    kind: 'relation',
    relation: relation as RelationKind,
    target: raw.target,
    toMany: TO_MANY.has(relation),
    owner: mappedBy === undefined,
    inversedBy,
    mappedBy,
  };
}
