import { ConfigurationError } from '../errors';

/**
 * The types a custom field may store: `ALLOWED_TYPES` of Strapi's custom-field registry (strapi/strapi
 * packages/core/core/src/registries/custom-fields.ts); a plugin registering another type fails there too.
 */
export const CUSTOM_FIELD_TYPES = [
  'biginteger', 'boolean', 'date', 'datetime', 'decimal', 'email', 'enumeration', 'float', 'integer', 'json',
  'password', 'richtext', 'string', 'text', 'time', 'uid',
] as const;

/** What a registered custom field stores; the other keys of a plugin's `register({ name, plugin, type, inputSize })` are accepted. */
export interface CustomFieldOption {
  readonly type: (typeof CUSTOM_FIELD_TYPES)[number];
  readonly name?: string;
  readonly plugin?: string;
  readonly inputSize?: unknown;
}

/**
 * The `customFields` option: what each custom field of the schema files stores, keyed by the uid its attributes
 * name in `customField` (`plugin::<plugin>.<name>`, or `global::<name>` for one registered without a plugin).
 *
 * @example
 * customFields: { 'plugin::color-picker.color': { type: 'string' } }
 */
export type CustomFieldsOption = Readonly<Record<string, CustomFieldOption>>;

/** A custom field's uid as Strapi's registry makes it: `plugin::<plugin>.<name>`, or `global::<name>`. */
const CUSTOM_FIELD_UID = /^(plugin::[A-Za-z0-9_-]+\.|global::)(?![0-9])[A-Za-z0-9$_-]+$/;

/**
 * Throws `CR_INVALID_OPTIONS` for a key of the `customFields` option that cannot be a custom field's uid (the
 * attributes of the schema files name them so in `customField`).
 */
export function checkCustomFieldUids(customFields: object | undefined): void {
  for (const uid of Object.keys(customFields ?? {})) {
    if (!CUSTOM_FIELD_UID.test(uid)) {
      throw new ConfigurationError('CR_INVALID_OPTIONS', `options.customFields["${uid}"]: a custom field uid is "plugin::<plugin>.<name>" or "global::<name>", as the attributes name it in "customField" (e.g. "plugin::color-picker.color")`);
    }
  }
}

/**
 * An attribute `{ type: 'customField', customField: 'plugin::x.y', ... }` as Strapi loads it: its `type` replaced
 * by the type the custom field stores, the rest kept (Strapi's `convertCustomFieldType`, strapi/strapi
 * packages/core/core/src/utils/convert-custom-field-type.ts). Strapi refuses to start on a custom field nobody
 * registered (`Could not find Custom Field`); so do we, saying how to register it. Other attributes are returned as
 * they are (an attribute that already names its stored type with a `customField` key, as loaded models do, included).
 */
export function resolveCustomField(where: string, raw: Readonly<Record<string, unknown>>, customFields: CustomFieldsOption | undefined): Readonly<Record<string, unknown>> {
  if (raw.type !== 'customField') return raw;
  const uid = raw.customField;
  if (typeof uid !== 'string' || uid === '') {
    throw new ConfigurationError('CR_INVALID_SCHEMA', `${where}: a custom field attribute needs "customField", the uid of the custom field (e.g. "plugin::color-picker.color")`);
  }
  const registered = customFields !== undefined && Object.prototype.hasOwnProperty.call(customFields, uid) ? customFields[uid] : undefined;
  if (registered === undefined) {
    const known = Object.keys(customFields ?? {});
    throw new ConfigurationError(
      'CR_UNKNOWN_CUSTOM_FIELD',
      `${where}: the custom field "${uid}" is not registered. Say what it stores, as its plugin does with ` +
        `strapi.customFields.register({ name, plugin, type }): createContentRouter({ customFields: { '${uid}': { type: 'string' } } }) ` +
        `(type: one of ${CUSTOM_FIELD_TYPES.join(', ')}); registered: ${known.length > 0 ? known.join(', ') : 'none'}`,
    );
  }
  return { ...raw, type: registered.type };
}
