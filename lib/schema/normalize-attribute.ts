import { ConfigurationError } from '../errors';
import type { Attribute, MorphRelationAttribute, MorphRelationKind, RelationKind, ScalarType } from './types';

const SCALAR_TYPES: ReadonlySet<string> = new Set<ScalarType>([
  'string', 'text', 'richtext', 'blocks', 'email', 'password', 'uid', 'integer', 'biginteger', 'float',
  'decimal', 'boolean', 'date', 'time', 'datetime', 'timestamp', 'json', 'enumeration',
]);
const RELATION_KINDS: ReadonlySet<string> = new Set<RelationKind>([
  'oneToOne', 'oneToMany', 'manyToOne', 'manyToMany', 'oneWay', 'manyWay',
]);
const TO_MANY: ReadonlySet<string> = new Set(['oneToMany', 'manyToMany', 'manyWay']);
const MORPH_KINDS: ReadonlySet<string> = new Set<MorphRelationKind>(['morphToOne', 'morphToMany', 'morphOne', 'morphMany']);

/** true for `{ type: 'relation', relation: 'morph...' }`: loaded by {@link normalizeMorphRelation}, not served. */
export function isMorphRelation(raw: Readonly<Record<string, unknown>>): boolean {
  return raw.type === 'relation' && typeof raw.relation === 'string' && raw.relation.startsWith('morph');
}

/**
 * A morph relation as @strapi/types `schema/attribute/definitions/relation.ts` defines them: `morphToOne` and
 * `morphToMany` (the owner side: no target, any type), `morphOne` and `morphMany` (a `target`, and optionally the
 * target's owner attribute in `morphBy`).
 */
export function normalizeMorphRelation(owner: string, name: string, raw: Readonly<Record<string, unknown>>): MorphRelationAttribute {
  const where = `${owner}.${name}`;
  const relation = String(raw.relation);
  if (!MORPH_KINDS.has(relation)) {
    throw new ConfigurationError('CR_INVALID_SCHEMA', `${where}: unknown relation kind "${relation}" (morph relations: ${[...MORPH_KINDS].join(', ')})`);
  }
  const referenced = relation === 'morphOne' || relation === 'morphMany';
  if (referenced && typeof raw.target !== 'string') {
    throw new ConfigurationError('CR_INVALID_SCHEMA', `${where}: a ${relation} relation needs a "target"`);
  }
  if (raw.morphBy !== undefined && typeof raw.morphBy !== 'string') {
    throw new ConfigurationError('CR_INVALID_SCHEMA', `${where}: "morphBy" names an attribute of the target`);
  }
  return {
    name,
    kind: 'morph',
    relation: relation as MorphRelationKind,
    target: referenced ? (raw.target as string) : undefined,
    morphBy: referenced ? (raw.morphBy as string | undefined) : undefined,
    raw,
  };
}

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
