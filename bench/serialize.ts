/**
 * `npx ts-node --transpile-only bench/serialize.ts [query] [articles] [iterations]`: times, on one page of the
 * seeded blog, the two ways a list is written: `JSON.stringify` of the formatted documents, and the compiled
 * serializer (compileDocumentJson), and checks that they give the same text.
 */
import { memoryEngine } from '../lib';
import { storedPageOf } from '../lib/documents/read-documents';
import { compileDocumentJson, formatDocument } from '../lib/format';
import { createBlogApp } from '../examples/blog/app';
import { seedBlog } from './seed-blog';

/** Times `fn` including the conversion to bytes that res.send does (which flattens a concatenated string). */
function time(label: string, iterations: number, fn: () => string): string {
  let text = fn();
  let best = Infinity;
  for (let round = 0; round < 10; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < iterations / 10; i++) {
      text = fn();
      Buffer.from(text);
    }
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6 / (iterations / 10));
  }
  console.log(`${label}: ${best.toFixed(3)} ms (best of 10 rounds)`);
  return text;
}

async function main(): Promise<void> {
  const [query = 'populate=*', articles = '1000', iterations = '2000'] = process.argv.slice(2);
  const engine = memoryEngine();
  const blog = await createBlogApp({ seed: false, engine });
  await seedBlog(engine, { articles: Number(articles), authors: 10_000, categories: 1_000, files: 100 });
  const page = storedPageOf(await blog.router.documents('api::article.article').findMany(query))!;
  const { registry, uid, rows, selection } = page;
  const n = Number(iterations);
  for (let round = 0; round < 3; round++) {
    const a = time('format + JSON.stringify', n, () => JSON.stringify(rows.map((r) => formatDocument(registry, uid, r, selection))));
    const b = time('compileDocumentJson    ', n, () => {
      const toJson = compileDocumentJson(registry, uid, selection);
      return `[${rows.map(toJson).join(',')}]`;
    });
    if (a !== b) throw new Error('the texts differ');
  }
  await blog.close();
}

void main();
