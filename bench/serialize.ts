/**
 * `npx ts-node --transpile-only bench/serialize.ts [query] [articles] [iterations]`: times, on one page of the
 * seeded blog, the two ways a list's bytes are made: `Buffer.from(JSON.stringify(...))` of the formatted
 * documents, and the compiled writer (compileDocumentBytes into a JsonBytes), and checks that they give the same
 * bytes. Best of 10 rounds: the least disturbed figure on a shared machine.
 */
import { memoryEngine } from '../lib';
import { storedPageOf } from '../lib/documents/read-documents';
import { compileDocumentBytes, formatDocument, JsonBytes } from '../lib/format';
import { createBlogApp } from '../examples/blog/app';
import { seedBlog } from './seed-blog';

function time(label: string, iterations: number, fn: () => Buffer): Buffer {
  let bytes = fn();
  let best = Infinity;
  for (let round = 0; round < 10; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < iterations / 10; i++) bytes = fn();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6 / (iterations / 10));
  }
  console.log(`${label}: ${best.toFixed(3)} ms (best of 10 rounds)`);
  return bytes;
}

async function main(): Promise<void> {
  const [query = 'populate=*', articles = '1000', iterations = '2000'] = process.argv.slice(2);
  const engine = memoryEngine({ ephemeral: true });
  const blog = await createBlogApp({ seed: false, engine });
  await seedBlog(engine, { articles: Number(articles), authors: 10_000, categories: 1_000, files: 100 });
  const page = storedPageOf(await blog.router.documents('api::article.article').findMany(query))!;
  const { rows, read } = page;
  const { registry, query: selection } = read;
  const uid = read.ct.uid;
  const n = Number(iterations);
  for (let round = 0; round < 3; round++) {
    const a = time('format + JSON.stringify + Buffer.from', n, () => Buffer.from(JSON.stringify(rows.map((r) => formatDocument(registry, uid, r, selection)))));
    const b = time('compileDocumentBytes                 ', n, () => {
      const write = compileDocumentBytes(registry, uid, selection);
      const out = new JsonBytes(a.length + 1024);
      out.byte(0x5b);
      rows.forEach((row, i) => {
        if (i > 0) out.byte(0x2c);
        write(row, out);
      });
      out.byte(0x5d);
      return out.toBuffer();
    });
    if (!a.equals(b)) throw new Error('the bytes differ');
  }
  await blog.close();
}

void main();
