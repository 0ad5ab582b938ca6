import type { LoadResult } from './load';

/** The figures of one round: the ceiling and each scenario, measured one after the other. */
export interface RoundResult {
  ceiling: LoadResult;
  scenarios: Map<string, LoadResult>;
}

/** The figures of one size: one entry per round. */
export interface SizeResult {
  articles: number;
  rounds: RoundResult[];
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const ms = (x: number): string => `${x.toFixed(1)} ms`;

/** The median of non-empty `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function row(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
}

/** A scenario's results over the rounds, each with the ceiling of its round. */
function pairs(size: SizeResult, name: string | null): [LoadResult, LoadResult][] {
  return size.rounds.flatMap((r) => {
    const s = name === null ? r.ceiling : r.scenarios.get(name);
    return s ? [[s, r.ceiling] as [LoadResult, LoadResult]] : [];
  });
}

/** Median req/s of a scenario over the rounds. */
export function medianRps(size: SizeResult, name: string): number {
  return median(pairs(size, name).map(([s]) => s.rps));
}

/**
 * A table of one size: median req/s, p50, p99 over the rounds, and the median of the ratios to the ceiling of
 * the same round (latency: ceiling / scenario), with the range of the req/s ratio.
 */
export function formatSize(size: SizeResult): string {
  const widths = [30, 8, 9, 9, 8, 15, 7, 7];
  const lines = [
    `${size.articles} articles, median of ${size.rounds.length} rounds`,
    row(['scenario', 'req/s', 'p50', 'p99', 'req/s %', 'req/s % range', 'p50 %', 'p99 %'], widths),
  ];
  const names: (string | null)[] = [null, ...(size.rounds[0]?.scenarios.keys() ?? [])];
  for (const name of names) {
    const runs = pairs(size, name);
    if (runs.length === 0) continue;
    const ratios = runs.map(([s, c]) => s.rps / c.rps);
    const failures = runs.reduce((n, [s]) => n + s.failures, 0);
    lines.push(
      row([
        name ?? 'ceiling (bare Express)',
        median(runs.map(([s]) => s.rps)).toFixed(0),
        ms(median(runs.map(([s]) => s.p50))),
        ms(median(runs.map(([s]) => s.p99))),
        pct(median(ratios)),
        `${pct(Math.min(...ratios))}-${pct(Math.max(...ratios))}`,
        pct(median(runs.map(([s, c]) => c.p50 / Math.max(s.p50, 0.001)))),
        pct(median(runs.map(([s, c]) => c.p99 / Math.max(s.p99, 0.001)))),
      ], widths) + (failures > 0 ? `  (${failures} failed)` : ''),
    );
  }
  return lines.join('\n');
}

/** Per scenario: how much slower the large size is than the small one (median req/s and p50 ratios). */
export function formatSlowdown(small: SizeResult, large: SizeResult): string {
  const widths = [30, 14, 14];
  const lines = [`slowdown ${large.articles} / ${small.articles} articles`, row(['scenario', 'req/s ratio', 'p50 ratio'], widths)];
  for (const name of small.rounds[0]?.scenarios.keys() ?? []) {
    const s = pairs(small, name);
    const l = pairs(large, name);
    if (s.length === 0 || l.length === 0) continue;
    const p50 = (runs: [LoadResult, LoadResult][]) => median(runs.map(([r]) => r.p50));
    lines.push(row([name, `${(medianRps(small, name) / medianRps(large, name)).toFixed(2)}x`, `${(p50(l) / Math.max(p50(s), 0.001)).toFixed(2)}x`], widths));
  }
  return lines.join('\n');
}
