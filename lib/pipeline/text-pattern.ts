/** Escapes every regular expression metacharacter: user text is matched literally, never as a pattern. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Where the text must occur in the value. */
export type TextAnchor = 'contains' | 'startsWith' | 'endsWith' | 'equals';

/**
 * A `$regex` condition for a text operator: escaped, anchored as asked, `i` when case-insensitive.
 *
 * @example
 * textPattern('50%', 'contains', true) // { $regex: '50%', $options: 'i' }
 */
export function textPattern(value: unknown, anchor: TextAnchor, insensitive: boolean): { $regex: string; $options: string } {
  const text = escapeRegex(String(value));
  const source = anchor === 'equals' ? `^${text}$` : anchor === 'startsWith' ? `^${text}` : anchor === 'endsWith' ? `${text}$` : text;
  return { $regex: source, $options: insensitive ? 'i' : '' };
}
