/**
 * Edit distance of two short strings (option and schema keys): the fewest single-character insertions,
 * deletions, substitutions and swaps of two neighbours (optimal string alignment) that turn `a` into `b`.
 *
 * @example
 * editDistance('restt', 'rest'); // 1
 * editDistance('titel', 'title'); // 1
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/**
 * The known name closest to `given`, when it is close enough to be a typo: at most a third of the longer name's
 * length in edits (and at least 1), ties broken by the order of `known`. A case-only difference, or a name that
 * starts with the given one (3 characters at least: `default` for `defaultLocale`), always counts.
 *
 * @example
 * didYouMean('requried', ['required', 'private']); // 'required'
 * didYouMean('colour', ['rest', 'auth']); // undefined
 */
export function didYouMean(given: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    if (name.toLowerCase() === given.toLowerCase()) return name;
    if (given.length >= 3 && name.toLowerCase().startsWith(given.toLowerCase())) return name;
    const d = editDistance(given, name);
    if (d < bestDistance && d <= Math.max(1, Math.floor(Math.max(given.length, name.length) / 3))) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/** ` (did you mean "x"?)` or the empty string. */
export function suggestion(given: string, known: Iterable<string>): string {
  const close = didYouMean(given, known);
  return close === undefined ? '' : ` (did you mean "${close}"?)`;
}

/**
 * The message of an unknown key: `options.restt: unknown option (did you mean "rest"?); allowed: ...`.
 *
 * @example
 * unknownKeyMessage('options', 'restt', ['rest', 'auth']);
 */
export function unknownKeyMessage(path: string, key: string, known: readonly string[], what = 'key'): string {
  return `${path}.${key}: unknown ${what}${suggestion(key, known)}; allowed: ${known.join(', ')}`;
}
