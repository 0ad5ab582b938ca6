import fs from 'node:fs';
import { validateRouterOptions } from '../options/validate-options';
import { CUSTOM_FIELD_TYPES, type CustomFieldOption, type CustomFieldsOption } from '../schema/custom-fields';

/**
 * `customFields` as `createContentRouter` takes it, checked as it checks it (uids, `type` one of Strapi's custom
 * field types, no unknown keys): throws its `CR_INVALID_OPTIONS` error.
 *
 * @example
 * checkCustomFields({ 'plugin::color-picker.color': { type: 'strin' } }); // throws '... must be one of "biginteger", ...'
 */
export function checkCustomFields(customFields: unknown): void {
  if (customFields !== undefined) validateRouterOptions({ contentTypes: [], customFields });
}

/**
 * What the custom fields of a project store, for `content-router types`: the JSON files given with
 * `--custom-fields` (the `customFields` option's object, `{ "plugin::color-picker.color": { "type": "string" } }`),
 * then each `--custom-field <uid>=<type>` (which wins over a file for its uid).
 *
 * @example
 * readCustomFields(['config/custom-fields.json'], ['plugin::color-picker.color=string']);
 * // { ...the file's, 'plugin::color-picker.color': { type: 'string' } }
 */
export function readCustomFields(files: readonly string[], specs: readonly string[]): CustomFieldsOption {
  const customFields: Record<string, CustomFieldOption> = {};
  for (const file of files) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
      checkCustomFields(parsed);
    } catch (err) {
      throw new Error(`--custom-fields ${file}: ${(err as Error).message}`);
    }
    Object.assign(customFields, parsed);
  }
  for (const spec of specs) {
    const at = spec.lastIndexOf('=');
    const [uid, type] = [spec.slice(0, at), spec.slice(at + 1)];
    if (at <= 0 || !(CUSTOM_FIELD_TYPES as readonly string[]).includes(type)) {
      throw new Error(`--custom-field ${JSON.stringify(spec)}: expected <uid>=<type> (e.g. plugin::color-picker.color=string), the type one of ${CUSTOM_FIELD_TYPES.join(', ')}`);
    }
    customFields[uid] = { type: type as CustomFieldOption['type'] };
  }
  return customFields;
}
