/* eslint-disable @typescript-eslint/no-require-imports */
/** The figures of one load run. */
export interface LoadResult {
  /** Mean requests per second. */
  rps: number;
  /** Median latency, ms. */
  p50: number;
  /** 99th percentile latency, ms. */
  p99: number;
  /** Responses that were not 2xx, plus connection errors and timeouts. */
  failures: number;
}

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

/** autocannon ships no type declarations; this is the part of its API the bench uses. */
const autocannon = require('autocannon') as Autocannon;

/** How a URL is loaded: connections, seconds of warm-up and of measurement, request headers. */
export interface LoadOptions {
  connections: number;
  warmup: number;
  duration: number;
  headers: Record<string, string>;
}

/**
 * Loads `url` with autocannon in a worker thread (so the load generator does not share the server's event
 * loop): a warm-up run whose figures are dropped, then the measured run.
 *
 * @example
 * const r = await load('http://127.0.0.1:4000/api/articles', { connections: 10, warmup: 1, duration: 5, headers: {} });
 */
export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const run = (duration: number) => autocannon({ url, connections: options.connections, duration, headers: options.headers, workers: 1 });
  if (options.warmup > 0) await run(options.warmup);
  const r = await run(options.duration);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failures: r.non2xx + r.errors + r.timeouts };
}
