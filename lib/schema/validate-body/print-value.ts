/**
 * yup's `printValue`, which Strapi's validation messages embed: strings quoted (not escaped), numbers as
 * written, objects and arrays as 2-space JSON in which every leaf is printed the same way.
 */
function printSimpleValue(value: unknown, quoteStrings: boolean): string | null {
  if (value === null || value === undefined || value === true || value === false) return String(value);
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    return value === 0 && 1 / value < 0 ? '-0' : String(value);
  }
  if (typeof value === 'string') return quoteStrings ? `"${value}"` : value;
  if (typeof value === 'bigint') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (value instanceof RegExp) return value.toString();
  return null;
}

/**
 * Prints a value the way yup does in its messages.
 *
 * @example
 * printValue('yes', true); // '"yes"'
 * printValue([{ title: 'a' }], true); // '[\n  {\n    "title": "\\"a\\""\n  }\n]'
 */
export function printValue(value: unknown, quoteStrings = false): string {
  const simple = printSimpleValue(value, quoteStrings);
  if (simple !== null) return simple;
  return JSON.stringify(
    value,
    function replacer(this: Record<string, unknown>, key: string, v: unknown) {
      const printed = printSimpleValue(this[key], quoteStrings);
      return printed !== null ? printed : v;
    },
    2,
  );
}
