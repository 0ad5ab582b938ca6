import type { LoadResult } from './load';

/** The figures of one size: the ceiling and each scenario. */
export interface SizeResult {
  articles: number;
  ceiling: LoadResult;
  scenarios: Map<string, LoadResult>;
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const ms = (x: number): string => `${x.toFixed(1)} ms`;

function row(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
}

/** A table of one size: req/s, p50, p99 and each as a ratio to the ceiling (latency: ceiling / scenario). */
export function formatSize(size: SizeResult): string {
  const widths = [30, 10, 10, 10, 9, 9, 9];
  const lines = [
    `${size.articles} articles`,
    row(['scenario', 'req/s', 'p50', 'p99', 'req/s %', 'p50 %', 'p99 %'], widths),
  ];
  const c = size.ceiling;
  const entries: [string, LoadResult][] = [['ceiling (bare Express)', c], ...size.scenarios];
  for (const [name, r] of entries) {
    const failures = r.failures > 0 ? `  (${r.failures} failed)` : '';
    lines.push(row([name, r.rps.toFixed(0), ms(r.p50), ms(r.p99), pct(r.rps / c.rps), pct(c.p50 / Math.max(r.p50, 0.001)), pct(c.p99 / Math.max(r.p99, 0.001))], widths) + failures);
  }
  return lines.join('\n');
}

/** Per scenario: how much slower the large size is than the small one (req/s and p50 ratios). */
export function formatSlowdown(small: SizeResult, large: SizeResult): string {
  const widths = [30, 14, 14];
  const lines = [`slowdown ${large.articles} / ${small.articles} articles`, row(['scenario', 'req/s ratio', 'p50 ratio'], widths)];
  for (const [name, s] of small.scenarios) {
    const l = large.scenarios.get(name);
    if (!l) continue;
    lines.push(row([name, `${(s.rps / l.rps).toFixed(2)}x`, `${(l.p50 / Math.max(s.p50, 0.001)).toFixed(2)}x`], widths));
  }
  return lines.join('\n');
}
