/**
 * `npm run bench:uploads`: the costliest uploads and bodies the example app accepts or refuses, each sent once to
 * a fresh child server (so every figure is that request's own): a tiny PNG that decodes to 100 megapixels, the
 * largest images the default limits accept (flat, and noise: the worst content for every encoder), a full
 * request, an SVG of nested `<use>`, an HTML page sent as `x.png`, and JSON and multipart bodies over their
 * limits. Prints the status, the time, the server's memory before the request and at its peak (sampled every
 * 5 ms), its worst event-loop delay and the message (or the stored type). Not a test: the figures depend on the
 * machine. See docs/security.md, "The cost of one upload".
 *
 * Environment: UPLOADS_ONLY (a substring of the case names to run).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { createBlogApp } from '../examples/blog/app';
import { blogTokens } from '../__tests__/helpers/conformance/start-blog-app';
import { memoryEngine } from '../lib';
import { DEFAULT_MAX_PIXELS, DEFAULT_MAX_REQUEST_PIXELS } from '../lib/media/image-header';

interface Part {
  name: string;
  type: string;
  bytes: Buffer;
}

interface Case {
  name: string;
  /** Multipart files, or a raw body with its content type. */
  files?: () => Promise<Part[]>;
  raw?: () => { type: string; body: Buffer; path: string };
}

/** A flat-colour image: a few KB of PNG (or JPEG) that decodes to width x height pixels. */
const flat = (format: 'png' | 'jpeg', width: number, height: number): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 140, b: 200 } } }).toFormat(format).toBuffer();

/** Noise: the worst image of a size for every encoder (nothing compresses, every colour differs). */
const noisy = (format: 'png' | 'jpeg' | 'gif' | 'webp', width: number, height: number): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .toFormat(format, format === 'webp' ? { lossless: true } : {})
    .toBuffer();

/** 10 levels of 10 `<use>` of the level below: 10^9 rectangles if rendered. */
function nestedUseSvg(): Buffer {
  let s = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="2000" height="2000"><defs><rect id="a0" width="10" height="10"/>';
  for (let i = 1; i <= 9; i++) s += `<g id="a${i}">${Array.from({ length: 10 }, () => `<use xlink:href="#a${i - 1}"/>`).join('')}</g>`;
  return Buffer.from(`${s}</defs><use xlink:href="#a9"/></svg>`);
}

const side = (pixels: number): number => Math.floor(Math.sqrt(pixels));
const LIMIT = side(DEFAULT_MAX_PIXELS);

const CASES: Case[] = [
  { name: 'PNG 10000x10000 (flat)', files: async () => [{ name: 'big.png', type: 'image/png', bytes: await flat('png', 10_000, 10_000) }] },
  { name: `PNG ${LIMIT}x${LIMIT} (flat, the largest accepted)`, files: async () => [{ name: 'max.png', type: 'image/png', bytes: await flat('png', LIMIT, LIMIT) }] },
  ...(['jpeg', 'png', 'webp', 'gif'] as const).map((format) => ({
    name: `${format.toUpperCase()} ${LIMIT}x${LIMIT} (noise, the largest accepted)`,
    files: async () => [{ name: `noise.${format}`, type: `image/${format}`, bytes: await noisy(format, LIMIT, LIMIT) }],
  })),
  { name: 'PNG 2000x2000 (noise, the largest re-encoded to a palette)', files: async () => [{ name: 'n.png', type: 'image/png', bytes: await noisy('png', 2000, 2000) }] },
  {
    name: `a request of PNGs filling the request budget`,
    files: async () => {
      const count = Math.max(1, Math.floor(DEFAULT_MAX_REQUEST_PIXELS / (LIMIT * LIMIT)));
      const bytes = await flat('png', LIMIT, LIMIT);
      return Array.from({ length: count }, (_v, i) => ({ name: `p${i}.png`, type: 'image/png', bytes }));
    },
  },
  {
    name: '20 PNGs of the largest size',
    files: async () => {
      const bytes = await flat('png', LIMIT, LIMIT);
      return Array.from({ length: 20 }, (_v, i) => ({ name: `p${i}.png`, type: 'image/png', bytes }));
    },
  },
  { name: 'SVG of nested <use> (2 KB)', files: async () => [{ name: 'bomb.svg', type: 'image/svg+xml', bytes: nestedUseSvg() }] },
  { name: 'HTML sent as x.png, image/png', files: async () => [{ name: 'x.png', type: 'image/png', bytes: Buffer.from('<!doctype html><script>alert(1)</script>') }] },
  { name: 'JSON body of 6 MB', raw: () => ({ type: 'application/json', body: Buffer.from(JSON.stringify({ data: { title: 'x'.repeat(6e6) } })), path: '/api/articles' }) },
  {
    name: 'multipart upload of 210 MB (over sizeLimit)',
    files: async () => [{ name: 'huge.bin', type: 'application/octet-stream', bytes: Buffer.alloc(210 * 1024 * 1024, 1) }],
  },
];

interface Result {
  status: number | string;
  ms: number;
  rssBeforeMB: number;
  peakRssMB: number;
  worstDelayMs: number;
  message: string;
}

/** The child: the example app on a free port, answering the parent's `begin` / `end` with its own figures. */
async function serve(): Promise<void> {
  const uploadsDir = mkdtempSync(path.join(os.tmpdir(), 'bench-uploads-'));
  const blog = await createBlogApp({ seed: false, engine: memoryEngine({ ephemeral: true }), uploadsDir });
  const server = blog.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Warm up: sharp loaded and one small image processed, so the figures are the request's own.
  const warm = new FormData();
  warm.append('files', new Blob([await flat('png', 600, 400)], { type: 'image/png' }), 'warm.png');
  await (await fetch(`${base}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${blogTokens().fullToken}` }, body: warm })).arrayBuffer();
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  let rssBefore = 0;
  let peak = 0;
  let sampler: NodeJS.Timeout | undefined;
  process.on('message', (m: string) => {
    if (m === 'begin') {
      global.gc?.();
      rssBefore = process.memoryUsage().rss;
      peak = rssBefore;
      // Sampled: getrusage's maxRSS would include what the parent held when it forked this process.
      sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 5);
      histogram.reset();
      histogram.enable();
      setTimeout(() => process.send!({ ready: true }), 20); // the histogram measures from its first tick
    } else if (m === 'end') {
      setTimeout(() => {
        histogram.disable();
        clearInterval(sampler);
        process.send!({ rssBeforeMB: rssBefore / 1e6, peakRssMB: peak / 1e6, worstDelayMs: histogram.max / 1e6 }, () => {
          server.closeAllConnections();
          server.close();
          void blog.close().then(() => {
            rmSync(uploadsDir, { recursive: true, force: true });
            process.exit(0);
          });
        });
      }, 20);
    }
  });
  process.send!({ base });
}

/** Runs one case against a fresh child server; the request is built and sent from this process. */
async function runCase(c: Case): Promise<Result> {
  const child = fork(__filename, ['--serve'], { execArgv: ['--expose-gc', '--no-warnings', '-r', 'ts-node/register/transpile-only'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const next = (): Promise<Record<string, unknown>> => new Promise((resolve) => child.once('message', (m) => resolve(m as Record<string, unknown>)));
  const { base } = (await next()) as { base: string };
  const auth = { authorization: `Bearer ${blogTokens().fullToken}` };
  let body: FormData | Buffer;
  let headers: Record<string, string> = auth;
  let url = `${base}/api/upload`;
  if (c.raw) {
    const raw = c.raw();
    body = raw.body;
    headers = { ...auth, 'content-type': raw.type };
    url = base + raw.path;
  } else {
    body = new FormData();
    for (const f of await c.files!()) body.append('files', new Blob([f.bytes], { type: f.type }), f.name);
  }
  child.send('begin');
  await next();
  const started = performance.now();
  let status: number | string;
  let message = '';
  try {
    const res = await fetch(url, { method: 'POST', headers, body });
    const text = await res.text();
    status = res.status;
    message = /"message":"((?:[^"\\]|\\.)*)"/.exec(text)?.[1] ?? (res.status < 300 ? [...text.matchAll(/"mime":"([^"]*)"/g)].map((m) => m[1]).slice(0, 1).join() : text.slice(0, 80));
  } catch (error) {
    status = `error (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name})`;
  }
  const ms = performance.now() - started;
  child.send('end');
  const figures = (await next()) as { rssBeforeMB: number; peakRssMB: number; worstDelayMs: number };
  await new Promise((resolve) => child.once('exit', resolve));
  return { status, ms, message, ...figures };
}

const row = (cells: readonly (string | number)[]): string => `| ${cells.join(' | ')} |`;

async function main(): Promise<void> {
  if (process.argv.includes('--serve')) return serve();
  const only = process.env.UPLOADS_ONLY;
  console.log(`sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}, ${os.cpus().length} cores\n`);
  console.log(row(['request', 'status', 'time (ms)', 'server RSS before (MB)', 'server peak RSS (MB)', 'worst event-loop delay (ms)', 'message or stored type']));
  console.log(row(['---', '---', '---:', '---:', '---:', '---:', '---']));
  for (const c of CASES) {
    if (only && !c.name.includes(only)) continue;
    const r = await runCase(c);
    console.log(row([c.name, r.status, r.ms.toFixed(0), r.rssBeforeMB.toFixed(0), r.peakRssMB.toFixed(0), r.worstDelayMs.toFixed(0), r.message.slice(0, 100).replace(/\|/g, '\\|')]));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
