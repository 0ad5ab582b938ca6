import { ConfigurationError, emitWarning } from '../errors';
import { editDistance } from '../errors/did-you-mean';

/**
 * Which keys of a schema file are refused, and which are accepted. Strapi's loader does not refuse unknown keys:
 * `createContentType` (strapi/strapi packages/core/core/src/domain/content-type/index.ts) validates with
 * `validateContentTypeDefinition` (./validator.ts), a yup shape of `info.singularName`, `info.pluralName`,
 * `info.displayName` and the enumeration values, without `noUnknown`; everything else is kept as it is and ignored
 * when nobody reads it. So a key is refused here only when it is certainly a mistake: unknown to Strapi AND a near
 * miss of a key the same place uses (`requried` for `required`, `maxlength` for `maxLength`: Strapi would ignore
 * those silently). Any other unknown key is accepted and listed in one `CR_UNKNOWN_SCHEMA_KEYS` start-up warning.
 */

/** What every attribute type takes: @strapi/types `schema/attribute/base.ts` (`type`, `pluginOptions`,
 * `searchable`, `column`), `options.ts` (`customField`, `options`), and `conditions` (Strapi 5 conditional fields). */
const BASE = ['type', 'pluginOptions', 'searchable', 'column', 'customField', 'options', 'conditions'];
/** ConfigurableOption, PrivateOption, RequiredOption, WritableOption, VisibleOption of @strapi/types `options.ts`. */
const COMMON = [...BASE, 'configurable', 'private', 'required', 'writable', 'visible'];
const LENGTH = ['minLength', 'maxLength'];
const NUMBER = [...COMMON, 'default', 'min', 'max', 'unique'];
const DATE = [...COMMON, 'default', 'unique'];

/** The keys each attribute type uses, from its definition in @strapi/types `schema/attribute/definitions/*.ts`. */
const KEYS_BY_TYPE: Readonly<Record<string, readonly string[]>> = {
  string: [...COMMON, 'default', 'unique', 'regex', ...LENGTH],
  text: [...COMMON, 'default', 'unique', 'regex', ...LENGTH],
  richtext: [...COMMON, 'default', ...LENGTH],
  blocks: COMMON,
  email: [...COMMON, 'default', 'unique', ...LENGTH],
  password: [...COMMON, 'default', ...LENGTH],
  uid: [...COMMON, 'default', 'targetField', ...LENGTH],
  enumeration: [...COMMON, 'default', 'enum', 'enumName'],
  integer: NUMBER,
  biginteger: NUMBER,
  float: NUMBER,
  decimal: NUMBER,
  boolean: [...COMMON, 'default'],
  json: [...COMMON, 'default'],
  date: DATE,
  time: DATE,
  datetime: DATE,
  timestamp: DATE,
  media: [...COMMON, 'allowedTypes', 'multiple'],
  relation: [...COMMON, 'relation', 'target', 'inversedBy', 'mappedBy', 'morphBy', 'useJoinTable'],
  component: [...COMMON, 'component', 'repeatable', 'min', 'max'],
  dynamiczone: [...COMMON, 'components', 'min', 'max'],
};

/**
 * Keys known to Strapi on some attribute, accepted silently wherever they are: every type's keys, the ones Strapi
 * itself adds to loaded models (`joinTable`, `joinColumn`, `morphColumn`, i18n's `unstable_virtual`) and the ones
 * older versions wrote (`enumName`, `autoPopulate`).
 */
const KNOWN_ATTRIBUTE_KEYS: ReadonlySet<string> = new Set([
  ...Object.values(KEYS_BY_TYPE).flat(), 'joinTable', 'joinColumn', 'morphColumn', 'unstable_virtual', 'autoPopulate',
]);

/** Keys of a loaded model (`strapi.contentTypes[uid]`, `strapi.components[uid]`), accepted at the top level. */
const LOADED_MODEL_KEYS = ['uid', 'modelType', 'modelName', 'globalId', 'apiName', 'plugin', 'category', '__schema__', '__filename__', 'actions', 'lifecycles'];

/** Per place in a file: the keys used there (near misses of these are refused) and the others known to Strapi. */
export const SCHEMA_PLACES = {
  contentType: { used: ['kind', 'collectionName', 'info', 'options', 'pluginOptions', 'attributes'], known: ['connection', 'config', ...LOADED_MODEL_KEYS] },
  component: { used: ['collectionName', 'info', 'options', 'pluginOptions', 'attributes', 'config'], known: ['connection', ...LOADED_MODEL_KEYS] },
  contentTypeInfo: { used: ['singularName', 'pluralName', 'displayName', 'description', 'icon'], known: ['name'] },
  componentInfo: { used: ['displayName', 'icon', 'description'], known: ['name'] },
  contentTypeOptions: { used: ['draftAndPublish', 'populateCreatorFields', 'privateAttributes'], known: ['comment', 'increments', 'timestamps'] },
} as const;

/** A key Strapi uses at this place, written with another case or one or two characters off (two from 10 characters). */
function nearMiss(key: string, used: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of used) {
    if (name.toLowerCase() === lower) return name;
    const d = editDistance(key, name);
    if (d < bestDistance && d <= (Math.max(key.length, name.length) >= 10 ? 2 : 1)) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Checks the keys of one object of a schema file: a key unknown to Strapi that is a near miss of a key `used`
 * here throws `CR_INVALID_SCHEMA` with a did-you-mean; other unknown keys are pushed to `unknown` (as
 * `<label>: <where>.<key>`) for the start-up warning.
 */
export function checkKeys(label: string, where: string, value: object, used: readonly string[], known: Iterable<string>, unknown: string[]): void {
  const accepted = new Set([...used, ...known]);
  for (const key of Object.keys(value)) {
    if (accepted.has(key)) continue;
    const close = nearMiss(key, used);
    if (close !== undefined) {
      throw new ConfigurationError(
        'CR_INVALID_SCHEMA',
        `${label}: ${where}.${key}: unknown key (did you mean "${close}"?); Strapi would ignore it silently. Keys used here: ${used.join(', ')}`,
      );
    }
    unknown.push(`${label}: ${where}.${key}`);
  }
}

/** {@link checkKeys} for an attribute: the keys of its type (for a custom field, of the type it stores). */
export function checkAttributeKeys(label: string, where: string, raw: object, type: string, unknown: string[]): void {
  checkKeys(label, where, raw, KEYS_BY_TYPE[type] ?? COMMON, KNOWN_ATTRIBUTE_KEYS, unknown);
}

/** How many unknown keys the warning names; the rest are counted. */
const LISTED = 20;
/** The warnings already emitted in this process: the same schema files are reported once, whatever the routers. */
const reported = new Set<string>();

/**
 * Emits the `CR_UNKNOWN_SCHEMA_KEYS` start-up warning naming the keys that Strapi does not use (kept, and ignored
 * as Strapi ignores them); once per process for the same keys.
 *
 * @example
 * warnUnknownSchemaKeys(['component dynamic-zone.cta: attributes.CTAs.displayName']);
 */
export function warnUnknownSchemaKeys(unknown: readonly string[]): void {
  if (unknown.length === 0) return;
  const more = unknown.length > LISTED ? `, and ${unknown.length - LISTED} more` : '';
  const message =
    `schema files: ${unknown.length} key${unknown.length === 1 ? '' : 's'} that Strapi does not use ${unknown.length === 1 ? 'is' : 'are'} ` +
    `ignored, as Strapi ignores them: ${unknown.slice(0, LISTED).join('; ')}${more}. Nothing to do if the files load in Strapi; ` +
    'a misspelled key would be one of these (see docs/errors.md).';
  if (reported.has(message)) return;
  reported.add(message);
  emitWarning('CR_UNKNOWN_SCHEMA_KEYS', message);
}
