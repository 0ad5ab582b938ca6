/**
 * `npm run bench:import-interrupt`: interrupts `content-router import` (the command, in a child process, on the
 * embedded engine's data file) while it writes, then counts what the store holds and whether the next import runs.
 * The export is the blog's (examples/blog/model/strapi-export.tar) with IMPORT_INTERRUPT_ARTICLES (default
 * 20,000) more articles, so that the write pass takes a few seconds. For each signal (SIGINT, SIGKILL) and each
 * delay of IMPORT_INTERRUPT_DELAYS (ms after the check pass ends, default 0,500,1500,3000): the rows of each
 * collection and the files in the uploads folder left after the interrupted import, the rows after a second
 * import, and its exit code. An import that cannot half-happen leaves 0 rows (or all of them) and 0 (or all) files.
 * See docs/transfer.md ("Interrupted imports").
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
const FIXTURE = path.join(ROOT, 'examples', 'blog', 'model', 'strapi-export.tar');
const ARTICLES = Number(process.env.IMPORT_INTERRUPT_ARTICLES ?? 20_000);
const DELAYS = (process.env.IMPORT_INTERRUPT_DELAYS ?? '0,500,1500,3000').split(',').map(Number);
const MODEL = ['--schemas', path.join(ROOT, 'examples/blog/model/content-types'), '--components', path.join(ROOT, 'examples/blog/model/components'), '--locales', 'en,fr,de'];

async function generate(file: string): Promise<void> {
  const { createArchiveWriter } = await import('../lib/transfer/archive-writer');
  const { jsonlStage, readArchive, readJsonLines } = await import('../lib/transfer/archive-reader');
  const out = createArchiveWriter(file, { gzip: true });
  for await (const entry of readArchive(FIXTURE)) {
    const stage = jsonlStage(entry.name);
    if (!stage) {
      await out.file(entry.name, entry.size, entry.stream);
      continue;
    }
    const writer = out.jsonl(stage);
    let template: Record<string, unknown> | undefined;
    for await (const { value } of readJsonLines(entry)) {
      const v = value as { type?: string; data?: Record<string, unknown> };
      if (stage === 'entities' && v.type === 'api::article.article' && v.data?.locale === 'en' && !template) template = v.data;
      await writer.write(value);
    }
    if (template) {
      for (let i = 0; i < ARTICLES; i++) {
        const data = { ...template, documentId: `bench${String(i).padStart(20, '0')}`, slug: `bench-${i}`, title: `Bench article ${i}`, seo: null, blocks: [] };
        await writer.write({ type: 'api::article.article', id: 1_000_000 + i, data });
      }
    }
    await writer.close();
  }
  await out.finish();
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** `content-router import` in a child; `interrupt` sends `signal` `delay` ms after the check pass's last line. */
function runImport(args: string[], interrupt?: { signal: NodeJS.Signals; delay: number }): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(ROOT, 'lib/cli.ts'), 'import', ...args], { cwd: ROOT, env: { ...process.env, TS_NODE_TRANSPILE_ONLY: '1' } });
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (interrupt && !sent && /checking: .* done/.test(stderr)) {
        sent = true;
        setTimeout(() => child.kill(interrupt.signal), interrupt.delay);
      }
    });
    child.stdout.resume();
    child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
  });
}

async function countRows(dataFile: string): Promise<Record<string, number>> {
  const { memoryEngine } = await import('../lib/engine/memory/memory-engine');
  const engine = memoryEngine({ file: dataFile });
  await engine.init([]);
  const out: Record<string, number> = {};
  for (const name of ['articles', 'authors', 'categories', 'files', '_strapi_transfer', '_strapi_import']) out[name] = await engine.count(name, {});
  await engine.close();
  return out;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cr-import-interrupt-'));
  const file = path.join(dir, 'export.tar.gz');
  await generate(file);
  console.log(`export: ${file} (${(fs.statSync(file).size / 1e6).toFixed(1)} MB, ${ARTICLES} extra articles)`);
  for (const signal of ['SIGINT', 'SIGKILL'] as const) {
    for (const delay of DELAYS) {
      const run = fs.mkdtempSync(path.join(dir, 'run-'));
      const args = [file, ...MODEL, '--data-file', path.join(run, 'content.db'), '--uploads', path.join(run, 'uploads')];
      const first = await runImport(args, { signal, delay });
      const uploads = () => (fs.existsSync(path.join(run, 'uploads')) ? fs.readdirSync(path.join(run, 'uploads')).filter((n) => !n.startsWith('.')).length : 0);
      const left = await countRows(path.join(run, 'content.db'));
      const leftFiles = uploads();
      const second = await runImport(args);
      const after = await countRows(path.join(run, 'content.db'));
      const lastLine = (s: string) => s.trim().split('\n').pop()?.slice(0, 160);
      console.log(
        `${signal} +${delay} ms: exit ${first.code ?? first.signal}; left ${JSON.stringify(left)}, ${leftFiles} file(s) | next import: exit ${second.code} ` +
          `(${lastLine(second.stderr) ?? ''}); then ${JSON.stringify(after)}, ${uploads()} file(s)`,
      );
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
