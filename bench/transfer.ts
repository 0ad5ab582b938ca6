/**
 * `npm run bench:transfer`: the peak memory (RSS) of an import and an export in Strapi's format, on a generated
 * export of BENCH_TRANSFER_DOCUMENTS (default 100,000) posts with 1,000 writers, and BENCH_TRANSFER_FILES
 * (default 64) media files of BENCH_TRANSFER_FILE_MB (default 16) MiB each (1 GiB): every post links a writer,
 * every 1,000th a cover. Each phase runs in its own process (the memory engine, in memory only, holds the
 * imported rows itself: what the transfer adds is what the phase's peak shows above that):
 * 1. generate the export (.tar.gz) with the archive writer;
 * 2. import it into an empty memory engine (uploads to a temporary folder);
 * 3. import it again, then export the store (.tar.gz): the export's own peak is its phase's peak minus phase 2's.
 * Reports, for each phase, the time, the peak RSS (the process's maxRSS) and the RSS at its start.
 * See docs/transfer.md ("Memory").
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ContentTypeSchema } from '../lib';

const num = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const DOCUMENTS = num('BENCH_TRANSFER_DOCUMENTS', 100_000);
const FILES = num('BENCH_TRANSFER_FILES', 64);
const FILE_BYTES = num('BENCH_TRANSFER_FILE_MB', 16) * 1024 * 1024;
const WRITERS = 1000;

export const contentTypes: ContentTypeSchema[] = [
  {
    kind: 'collectionType', collectionName: 'posts', info: { singularName: 'post', pluralName: 'posts' }, options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' }, body: { type: 'text' }, views: { type: 'integer' }, publishedOn: { type: 'date' },
      cover: { type: 'media', multiple: false }, writer: { type: 'relation', relation: 'manyToOne', target: 'api::writer.writer', inversedBy: 'posts' },
    },
  },
  {
    kind: 'collectionType', collectionName: 'writers', info: { singularName: 'writer', pluralName: 'writers' }, options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, posts: { type: 'relation', relation: 'oneToMany', target: 'api::post.post', mappedBy: 'writer' } },
  },
] as unknown as ContentTypeSchema[];

/**
 * `size` bytes streamed in 64 KiB chunks (nothing of it held): one random chunk repeated, which gzip cannot
 * shrink (its window is 32 KiB), as it cannot shrink the images and videos of a media library.
 */
function bytes(size: number): Readable {
  const chunk = randomBytes(64 * 1024);
  let left = size;
  return new Readable({
    read() {
      const n = Math.min(left, chunk.length);
      left -= n;
      this.push(n > 0 ? chunk.subarray(0, n) : null);
    },
  });
}

async function generate(file: string): Promise<void> {
  const { createArchiveWriter } = await import('../lib/transfer/archive-writer');
  const out = createArchiveWriter(file, { gzip: true });
  const at = '2026-01-01T00:00:00.000Z';
  const stamps = { createdAt: at, updatedAt: at, publishedAt: at, locale: null };
  const entities = out.jsonl('entities');
  for (let i = 1; i <= WRITERS; i++) await entities.write({ type: 'api::writer.writer', id: i, data: { documentId: `w${i}`, name: `Writer ${i}`, ...stamps } });
  for (let i = 1; i <= DOCUMENTS; i++) {
    const data = { documentId: `p${i}`, title: `Post ${i}`, body: `Body of post ${i} `.repeat(8), views: i, publishedOn: '2026-01-01', ...stamps };
    await entities.write({ type: 'api::post.post', id: i, data });
  }
  for (let i = 1; i <= FILES; i++) {
    const data = { documentId: `f${i}`, name: `file${i}.bin`, hash: `file_${i}`, ext: '.bin', mime: 'application/octet-stream', size: FILE_BYTES / 1000, url: `/uploads/file_${i}.bin`, provider: 'local', formats: null, ...stamps };
    await entities.write({ type: 'plugin::upload.file', id: i, data });
  }
  await entities.close();
  for (let i = 1; i <= FILES; i++) await out.file(`assets/uploads/file_${i}.bin`, FILE_BYTES, bytes(FILE_BYTES));
  const links = out.jsonl('links');
  for (let i = 1; i <= DOCUMENTS; i++) {
    await links.write({ kind: 'relation.basic', relation: 'manyToOne', left: { type: 'api::post.post', field: 'writer', ref: i }, right: { type: 'api::writer.writer', field: 'posts', ref: (i % WRITERS) + 1, pos: Math.ceil(i / WRITERS) } });
    if (i % 1000 === 0) await links.write({ kind: 'relation.morph', relation: 'morphToMany', left: { type: 'plugin::upload.file', field: 'related', ref: (i / 1000 - 1) % FILES + 1 }, right: { type: 'api::post.post', field: 'cover', ref: i, pos: 1 } });
  }
  await links.close();
  await out.buffer('metadata.json', JSON.stringify({ createdAt: at, strapi: { version: '5.54.0' } }, null, 2));
  await out.finish();
}

/** One phase in this process (the child): prints `{ ms, startRss, maxRss }` as JSON. */
async function phase(name: string, dir: string): Promise<void> {
  const { importStrapiExport, exportStrapiExport, memoryEngine } = await import('../lib');
  const startRss = process.memoryUsage.rss();
  const started = Date.now();
  const file = path.join(dir, 'export.tar.gz');
  let exportStarted = 0;
  let exportStartRss = 0;
  if (name === 'generate') await generate(file);
  else {
    const target = { engine: memoryEngine({ ephemeral: true }), contentTypes };
    const uploads = { directory: path.join(dir, `uploads-${name}`) };
    await importStrapiExport(target, file, { uploads });
    if (name === 'export') {
      exportStarted = Date.now();
      exportStartRss = process.memoryUsage.rss();
      await exportStrapiExport(target, path.join(dir, 'again.tar.gz'), { uploads });
    }
    rmSync(uploads.directory, { recursive: true, force: true });
  }
  const maxRss = process.resourceUsage().maxRSS * 1024;
  const ms = Date.now() - (exportStarted || started);
  process.stdout.write(JSON.stringify({ ms, startRss: exportStartRss || startRss, maxRss }));
}

const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(0)} MB`;

function main(): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cr-bench-transfer-'));
  try {
    console.log(`bench:transfer: ${DOCUMENTS} posts, ${WRITERS} writers, ${FILES} files of ${mb(FILE_BYTES)} (${mb(FILES * FILE_BYTES)})`);
    for (const name of ['generate', 'import', 'export']) {
      const out = execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', __filename, name, dir], { encoding: 'utf8', maxBuffer: 1 << 20 });
      const r = JSON.parse(out) as { ms: number; startRss: number; maxRss: number };
      const size = name === 'generate' ? ` (${mb(statSync(path.join(dir, 'export.tar.gz')).size)} file)` : '';
      console.log(`${name.padEnd(8)} ${(r.ms / 1000).toFixed(1).padStart(6)} s   peak RSS ${mb(r.maxRss).padStart(7)}   RSS at start ${mb(r.startRss).padStart(7)}${size}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [, , child, childDir] = process.argv;
if (child && childDir) void phase(child, childDir);
else main();
