import type { Filter, Row } from '../../types';

/** The BSON type aliases a partial filter may name, for the JSON values the memory engine stores. */
const TYPE_TESTS: Readonly<Record<string, (v: unknown) => boolean>> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number',
  double: (v) => typeof v === 'number' && !Number.isInteger(v),
  int: (v) => typeof v === 'number' && Number.isInteger(v),
  bool: (v) => typeof v === 'boolean',
  object: (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
  array: (v) => Array.isArray(v),
};

/**
 * Compiles an index's partial filter (`IndexSpec.partialFilter`) to a row test, with MongoDB's meaning of the
 * conditions it accepts: `{ <field>: { $type: <alias> | [aliases] } }` on top-level fields, several fields or an
 * `$and` of such conditions. As in MongoDB, a missing field matches no type, `null` only `'null'`, and an array
 * matches when one of its elements has the type (https://www.mongodb.com/docs/manual/reference/operator/query/type/).
 * Anything else is refused when the index is declared, never silently ignored.
 *
 * @example
 * compilePartialFilter({ slug: { $type: 'string' } })({ slug: null }) // false: the row is not indexed
 */
export function compilePartialFilter(filter: Filter): (row: Row) => boolean {
  const tests: ((row: Row) => boolean)[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(condition)) tests.push(...condition.map((f) => compilePartialFilter(f as Filter)));
    else tests.push(typeCondition(key, condition));
  }
  return (row) => tests.every((t) => t(row));
}

function typeCondition(field: string, condition: unknown): (row: Row) => boolean {
  const alias = (condition as { $type?: unknown } | null)?.$type;
  const aliases = Array.isArray(alias) ? alias : [alias];
  if (field.startsWith('$') || field.includes('.') || Object.keys(condition ?? {}).length !== 1) throw unsupported(field, condition);
  const checks = aliases.map((a) => {
    if (a === 'null') return (v: unknown) => v === null;
    const check = typeof a === 'string' ? TYPE_TESTS[a] : undefined;
    if (!check) throw unsupported(field, condition);
    return check;
  });
  const matches = (v: unknown): boolean => checks.some((c) => c(v));
  return (row) => {
    const value = row[field];
    return matches(value) || (Array.isArray(value) && value.some(matches));
  };
}

function unsupported(field: string, condition: unknown): Error {
  return new Error(`memoryEngine: unsupported partial index condition ${JSON.stringify({ [field]: condition })}`);
}
