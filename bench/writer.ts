/**
 * `npx ts-node --transpile-only bench/writer.ts [iterations]`: CPU time (process.cpuUsage, steadier than the clock
 * on a shared machine) of the compiled writer alone (compileDocumentBytes into a JsonBytes, as http/send's
 * sendList) on one page of the seeded blog, best of 10 rounds, 3 times; it checks the bytes against
 * `JSON.stringify` of the formatted documents first. Scenarios: `default` (the default list: the stored rows),
 * `tree` (the read-only token's tree), `star` (`populate=*`), `fresh` (the default list's rows shallow-copied before
 * each run, as an engine that hands out new objects on every read; the copy is timed too). `ONLY=tree` runs one.
 * Compare two checkouts by running it in each.
 */
import { memoryEngine } from '../lib';
import { storedPageOf, type StoredPage } from '../lib/documents/read-documents';
import { compileDocumentBytes, formatDocument, JsonBytes } from '../lib/format';
import { createBlogApp } from '../examples/blog/app';
import { seedBlog } from './seed-blog';

const QUERIES: Record<string, string> = {
  default: '',
  tree: 'populate[author][populate]=avatar&populate[categories]=true&populate[seo]=true',
  star: 'populate=*',
  fresh: '',
};

async function main(): Promise<void> {
  const engine = memoryEngine({ ephemeral: true });
  const blog = await createBlogApp({ seed: false, engine });
  await seedBlog(engine, { articles: 1000, authors: 10_000, categories: 1_000, files: 100 });
  const articles = blog.router.documents('api::article.article');
  const n = Number(process.argv[2] ?? 20000);
  for (let round = 0; round < 3; round++) {
    for (const [name, query] of Object.entries(QUERIES)) {
      if (process.env.ONLY && process.env.ONLY !== name) continue;
      const page: StoredPage = storedPageOf(await articles.findMany(query))!;
      const { registry, ct, query: selection } = page.read;
      const expected = Buffer.from(JSON.stringify(page.rows.map((r) => formatDocument(registry, ct.uid, r, selection))));
      const write = compileDocumentBytes(registry, ct.uid, selection);
      const run = (): Buffer => {
        const rows = name === 'fresh' ? page.rows.map((r) => ({ ...r })) : page.rows;
        const out = new JsonBytes(expected.length + 1024);
        out.byte(0x5b);
        for (let i = 0; i < rows.length; i++) {
          if (i > 0) out.byte(0x2c);
          write(rows[i]!, out);
        }
        out.byte(0x5d);
        return out.toBuffer();
      };
      if (!run().equals(expected)) throw new Error(`${name}: the bytes differ`);
      let best = Infinity;
      for (let r = 0; r < 10; r++) {
        const started = process.cpuUsage();
        for (let i = 0; i < n / 10; i++) run();
        const used = process.cpuUsage(started);
        best = Math.min(best, (used.user + used.system) / (n / 10));
      }
      console.log(`${name}: ${best.toFixed(2)} us CPU per page (${expected.length} B)`);
    }
  }
  await blog.close();
}

void main();
