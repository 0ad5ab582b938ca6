/**
 * `npx ts-node --transpile-only bench/profile.ts [path] [articles] [requests]`: sends requests one after the
 * other to an in-process blog app (no load generator), for `node --cpu-prof` runs. Prints the mean time.
 */
import type { AddressInfo } from 'node:net';
import { memoryEngine } from '../lib';
import { createBlogApp } from '../examples/blog/app';
import { loadBlogModel } from '../examples/blog/model';
import { seedBlog } from './seed-blog';

async function main(): Promise<void> {
  const [path = '/api/articles?populate=*', articles = '1000', requests = '200'] = process.argv.slice(2);
  const engine = memoryEngine();
  const blog = await createBlogApp({ seed: false, engine });
  const data = await seedBlog(engine, { articles: Number(articles), authors: 10_000, categories: 1_000, files: 100 });
  const server = blog.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path.replace('$MIDDLE', data.middleArticle)}`;
  const token = loadBlogModel().permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;
  const headers = { authorization: `Bearer ${token}` };
  const started = process.hrtime.bigint();
  for (let i = 0; i < Number(requests); i++) {
    const res = await fetch(url, { headers });
    if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  }
  console.log(`${path}: ${(Number(process.hrtime.bigint() - started) / 1e6 / Number(requests)).toFixed(2)} ms per request`);
  server.close();
  await blog.close();
}

void main();
