import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFORMANCE_DIR } from './load';
import type { CaseResult, CorpusCase } from './types';

/** The issue area a failing case waits for. */
export type IssueArea = 'core' | 'media' | 'query' | 'relations' | 'drafts' | 'i18n' | 'auth' | 'v4';

/** Case name -> the issue area it waits for (`__tests__/conformance/expected-failures.json`). */
export type ExpectedFailures = Record<string, IssueArea>;

export const EXPECTED_FAILURES_FILE = join(CONFORMANCE_DIR, 'expected-failures.json');

const AREAS: ReadonlySet<string> = new Set<IssueArea>(['core', 'media', 'query', 'relations', 'drafts', 'i18n', 'auth', 'v4']);

/** First match wins: a case's name (and group) -> the area it most likely waits for. */
const AREA_RULES: readonly (readonly [RegExp, IssueArea])[] = [
  [/v4/, 'v4'],
  [/^auth\./, 'auth'],
  [/^setup\.upload|^upload\.|media/, 'media'],
  [/i18n|^locale\.|\.fr(\.|-|$)/, 'i18n'],
  [/^status\.|draft/, 'drafts'],
  [/^populate\.|relation|^setup\.(article|category)/, 'relations'],
  [/^(filters|sort|pagination|fields)\./, 'query'],
  [/readonly|public$/, 'auth'],
];

/**
 * A guess of the issue area a case waits for, from its name and group (refine by hand when it is wrong:
 * existing reasons are kept by {@link updateExpectedFailures}).
 * @example guessArea({ name: 'filters.eq', group: 'filters', method: 'GET', path: '/api/articles' }) // 'query'
 */
export function guessArea(c: Pick<CorpusCase, 'name' | 'group'>): IssueArea {
  for (const [re, area] of AREA_RULES) if (re.test(c.name)) return area;
  return 'core';
}

/**
 * Reads the expected-failures list; throws on an entry whose area is not one of {@link IssueArea}.
 * A missing file is an empty list.
 */
export function readExpectedFailures(file: string = EXPECTED_FAILURES_FILE): ExpectedFailures {
  if (!existsSync(file)) return {};
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const out: ExpectedFailures = {};
  for (const [name, area] of Object.entries(raw)) {
    if (typeof area !== 'string' || !AREAS.has(area)) throw new Error(`${file}: "${name}" has an unknown area ${JSON.stringify(area)}`);
    out[name] = area as IssueArea;
  }
  return out;
}

/** Writes the list as stable, reviewable JSON (one case a line, corpus order as given). */
export function writeExpectedFailures(list: ExpectedFailures, file: string = EXPECTED_FAILURES_FILE): void {
  writeFileSync(file, JSON.stringify(list, null, 2) + '\n');
}

/**
 * The list a run implies: every failing case in corpus order, keeping the existing reason of cases already
 * listed and guessing the area of new ones.
 * @example updateExpectedFailures(results, readExpectedFailures(), loadCorpus())
 */
export function updateExpectedFailures(results: readonly CaseResult[], previous: ExpectedFailures, cases: readonly CorpusCase[]): ExpectedFailures {
  const byName = new Map(cases.map((c) => [c.name, c]));
  const out: ExpectedFailures = {};
  for (const r of results) {
    if (r.pass) continue;
    out[r.name] = previous[r.name] ?? guessArea(byName.get(r.name) ?? { name: r.name });
  }
  return out;
}

/** How a run stands against the expected-failures list. */
export interface RatchetVerdict {
  readonly passed: number;
  readonly failed: number;
  /** Failing cases that are listed. */
  readonly expected: number;
  /** Failing cases that are not listed: regressions (or new cases). */
  readonly unexpectedFailures: readonly CaseResult[];
  /** Listed cases that pass now: remove them from the list. */
  readonly unexpectedPasses: readonly string[];
  /** Listed names that are not in the run at all. */
  readonly unknownEntries: readonly string[];
}

/**
 * Compares a run's results with the expected-failures list.
 * @example const v = evaluateRatchet(results, readExpectedFailures()); v.unexpectedFailures.length === 0
 */
export function evaluateRatchet(results: readonly CaseResult[], expected: ExpectedFailures): RatchetVerdict {
  const names = new Set(results.map((r) => r.name));
  const failing = results.filter((r) => !r.pass);
  return {
    passed: results.length - failing.length,
    failed: failing.length,
    expected: failing.filter((r) => r.name in expected).length,
    unexpectedFailures: failing.filter((r) => !(r.name in expected)),
    unexpectedPasses: results.filter((r) => r.pass && r.name in expected).map((r) => r.name),
    unknownEntries: Object.keys(expected).filter((n) => !names.has(n)),
  };
}

/** `conformance: N passed, M failed (K expected)`. */
export function formatSummary(v: RatchetVerdict): string {
  return `conformance: ${v.passed} passed, ${v.failed} failed (${v.expected} expected)`;
}

/** The ratchet's failure report, empty when the run agrees with the list. */
export function formatRatchetProblems(v: RatchetVerdict): string[] {
  const lines: string[] = [];
  for (const r of v.unexpectedFailures) {
    lines.push(`FAIL ${r.name}${r.mode !== 'full' ? ` [${r.mode}]` : ''} (not in expected-failures.json)`);
    for (const d of r.diffs) lines.push(`     ${d}`);
  }
  for (const n of v.unexpectedPasses) lines.push(`PASS ${n}: it passes now, remove it from __tests__/conformance/expected-failures.json`);
  for (const n of v.unknownEntries) lines.push(`${n}: listed in expected-failures.json but not in the corpus, remove it`);
  return lines;
}
