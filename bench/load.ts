/* eslint-disable @typescript-eslint/no-require-imports */
import fs from 'node:fs';
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
  /**
   * CPU time (ms) of this process's main thread per request, where the in-process server runs (autocannon runs in
   * a worker thread): Linux only (/proc), undefined elsewhere. When other jobs take the cores, req/s follows them
   * and CPU time per request much less.
   */
  cpu?: number;
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

/** autocannon ships no type declarations; this is the part of its API the bench uses. */
const autocannon = require('autocannon') as Autocannon;

/**
 * One request of a sequence each connection sends in a loop (autocannon's `requests`); `[<id>]` in its path or
 * body becomes a fresh id on every send.
 */
export interface LoadRequest {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

/** How a URL is loaded: connections, seconds of warm-up and of measurement, request headers. */
export interface LoadOptions {
  connections: number;
  warmup: number;
  duration: number;
  headers: Record<string, string>;
}

/**
 * Loads `url` with autocannon in a worker thread (so the load generator does not share the server's event
 * loop): a warm-up run whose figures are dropped, then the measured run. With `requests`, each connection sends
 * them in a loop, on `url` as the base.
 *
 * @example
 * const r = await load('http://127.0.0.1:4000/api/articles', { connections: 10, warmup: 1, duration: 5, headers: {} });
 */
export async function load(url: string, options: LoadOptions, requests?: readonly LoadRequest[]): Promise<LoadResult> {
  const sequence = requests ? { requests, idReplacement: true } : {};
  const run = (duration: number) => autocannon({ url, connections: options.connections, duration, headers: options.headers, workers: 1, ...sequence });
  if (options.warmup > 0) await run(options.warmup);
  const before = mainThreadCpu();
  const r = await run(options.duration);
  const after = mainThreadCpu();
  const cpu = before !== undefined && after !== undefined && r.requests.total > 0 ? (after - before) / r.requests.total : undefined;
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failures: r.non2xx + r.errors + r.timeouts, ...(cpu === undefined ? {} : { cpu }) };
}

/** CPU time (user + system, ms) of this process's main thread so far, from /proc (Linux); undefined elsewhere. */
export function mainThreadCpu(): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (USER_HZ, 100 on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}
