type Row = Record<string, unknown>;

/** Changes every object and array reachable from `value`: an object shared with storage would show the change. */
export function mutateDeep(value: unknown): void {
  if (Array.isArray(value)) {
    value.forEach(mutateDeep);
    value.push('mutated');
  } else if (value !== null && typeof value === 'object') {
    Object.values(value).forEach(mutateDeep);
    (value as Row).mutated = true;
  }
}
