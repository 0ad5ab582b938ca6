/**
 * `npm run bench:cursor [articles] [pageSize] [page]`: page `page` (default 1,000) of `articles` (default 100,000)
 * published articles, `pageSize` (default 50) a page, by cursor and by offset, on the memory engine (issue 32). Seeds
 * the blog (bench/seed-blog.ts), then per sort walks by cursor from the first page to page `page` (each cursor comes
 * from the page before it: a client cannot jump) and times pages 1, 10, 100 and `page` of the walk, then reads the
 * first and the last of them again 5 times each (median), by cursor and as `pagination[page]`. Requests are sent in
 * process (fetch) one after the other; times are wall clock from the client.
 */
import type { AddressInfo } from 'node:net';
import { memoryEngine } from '../lib';
import { createBlogApp } from '../examples/blog/app';
import { loadBlogModel } from '../examples/blog/model';
import { seedBlog } from './seed-blog';

const SORTS = ['', 'sort=views:desc'];
const ROUNDS = 5;

interface Page {
  readonly ms: number;
  readonly body: { data: unknown[]; meta: { pagination: { nextCursor?: string | null } } };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const [articles = '100000', size = '50', last = '1000'] = process.argv.slice(2);
  const pages = Number(last);
  const engine = memoryEngine({ ephemeral: true });
  const blog = await createBlogApp({ seed: false, engine });
  await seedBlog(engine, { articles: Number(articles), authors: 1_000, categories: 100, files: 10 });
  const server = blog.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/articles?fields[0]=title&`;
  const token = loadBlogModel().permissions.apiTokens.find((t) => t.type === 'read-only')!.accessKey;
  const get = async (query: string): Promise<Page> => {
    const started = process.hrtime.bigint();
    const res = await fetch(base + query, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as Page['body'];
    if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, body };
  };
  console.log(`${articles} articles, ${size} a page, page ${pages}, Node ${process.version}`);
  for (const sort of SORTS) {
    const cursorQuery = (cursor: string): string => `${sort}&pagination[limit]=${size}&pagination[cursor]=${encodeURIComponent(cursor)}`;
    const offsetQuery = (page: number): string => `${sort}&pagination[pageSize]=${size}&pagination[page]=${page}&pagination[withCount]=false`;
    await get(cursorQuery(''));
    await get(offsetQuery(1));
    const cursors: string[] = [''];
    const walked: Record<number, number> = {};
    const started = process.hrtime.bigint();
    for (let page = 1; page <= pages; page++) {
      const { ms, body } = await get(cursorQuery(cursors[page - 1]!));
      if ([1, 10, 100, pages].includes(page)) walked[page] = ms;
      const next = body.meta.pagination.nextCursor;
      if (typeof next !== 'string') throw new Error(`no page ${page + 1}: the walk ended`);
      cursors.push(next);
    }
    const walk = Number(process.hrtime.bigint() - started) / 1e6;
    const times = async (query: string): Promise<number> => {
      const ms: number[] = [];
      for (let i = 0; i < ROUNDS; i++) ms.push((await get(query)).ms);
      return median(ms);
    };
    const row = {
      cursorFirst: await times(cursorQuery('')),
      cursorLast: await times(cursorQuery(cursors[pages - 1]!)),
      offsetFirst: await times(offsetQuery(1)),
      offsetLast: await times(offsetQuery(pages)),
    };
    const f = (ms: number): string => `${ms.toFixed(1)} ms`;
    console.log(`\n${sort || 'default sort (id)'}`);
    console.log(`  cursor walk, page 1 / 10 / 100 / ${pages}: ${[1, 10, 100, pages].map((p) => f(walked[p] ?? NaN)).join(' / ')}; whole walk ${(walk / 1000).toFixed(1)} s`);
    console.log(`  median of ${ROUNDS}: cursor page 1 ${f(row.cursorFirst)}, page ${pages} ${f(row.cursorLast)} (x${(row.cursorLast / row.cursorFirst).toFixed(2)})`);
    console.log(`  median of ${ROUNDS}: offset page 1 ${f(row.offsetFirst)}, page ${pages} ${f(row.offsetLast)} (x${(row.offsetLast / row.offsetFirst).toFixed(2)})`);
  }
  server.close();
  await blog.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
