import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createContentRouter, type ContentRouter } from '../../lib';
import { loadBlogModel } from '../../examples/blog/model';
import { seedDemo } from '../../examples/blog/seed';
import { prng } from '../helpers/prng';
import { testEngine } from '../helpers/test-engine';
import { blogAuthOptions, FULL_KEY } from '../http/auth/blog-auth-app';

/**
 * CDN purges proven behind a real cache: Debian's Varnish with the xkey vmod of varnish-modules (installed by
 * .ci/run), started here with the VCL of docs/caching.md. The router runs with `cacheTags: { header: 'xkey' }`
 * and a `cache.purge` listener sending `PURGE` requests with `xkey-purge`; reads go through Varnish, writes
 * straight to the router, and every read through Varnish after a write must be the router's own answer, byte
 * for byte. Skipped only when varnishd is not installed.
 */
const VARNISHD = ['/usr/sbin/varnishd', '/usr/local/sbin/varnishd'].find((p) => fs.existsSync(p)) ?? whichVarnishd();

function whichVarnishd(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v varnishd'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() !== '' ? found.stdout.trim() : undefined;
}

/** The VCL of docs/caching.md ("Varnish"), with the router's address. */
export function varnishVcl(host: string, port: number): string {
  return `vcl 4.1;
import xkey;

backend default { .host = "${host}"; .port = "${port}"; }

# Who may purge: the router's hosts.
acl purgers { "127.0.0.1"; "::1"; }

sub vcl_recv {
  if (req.method == "PURGE") {
    if (client.ip !~ purgers) { return (synth(403, "Forbidden")); }
    if (!req.http.xkey-purge) { return (synth(400, "xkey-purge header required")); }
    set req.http.n-gone = xkey.purge(req.http.xkey-purge);
    return (synth(200, "Purged " + req.http.n-gone + " objects"));
  }
  # The rest is Varnish's built-in: a request with Authorization (a caller's answer, private) is passed.
}

sub vcl_deliver {
  if (obj.hits > 0) { set resp.http.X-Cache = "HIT"; } else { set resp.http.X-Cache = "MISS"; }
  unset resp.http.xkey; # the tags are for Varnish, not for clients
}
`;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const run = VARNISHD ? describe : describe.skip;
const title = VARNISHD ? `CDN purges through Varnish (${VARNISHD})` : 'CDN purges through Varnish: SKIPPED, varnishd is not installed (apt-get install varnish varnish-modules)';

run(title, () => {
  let router: ContentRouter;
  let server: Server;
  let varnish: ChildProcess;
  let varnishLog = '';
  let work: string;
  let origin: string;
  let cdn: string;
  const pending: Promise<void>[] = [];
  const full = { authorization: `Bearer ${FULL_KEY}`, 'content-type': 'application/json' };

  /** Sends the tags to Varnish, a few hundred at a time (Varnish's request headers are limited to 8 KB). */
  async function purge(tags: readonly string[]): Promise<void> {
    for (let i = 0; i < tags.length; i += 100) {
      const res = await fetch(`${cdn}/`, { method: 'PURGE', headers: { 'xkey-purge': tags.slice(i, i + 100).join(' ') } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`PURGE answered ${res.status}`);
    }
  }

  /** Waits for the purges of the writes made so far. */
  async function settle(): Promise<void> {
    await Promise.all(pending.splice(0));
  }

  async function read(base: string, url: string): Promise<{ status: number; body: string; cache: string | null }> {
    const res = await fetch(base + url);
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()).toString('utf8'), cache: res.headers.get('x-cache') };
  }

  async function write(method: string, url: string, body?: unknown): Promise<Record<string, unknown>> {
    const res = await fetch(origin + url, { method, headers: full, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    await settle();
    return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  }

  /** Reads through Varnish and straight from the router: the same status and bytes. */
  async function fresh(url: string): Promise<{ status: number; body: string; cache: string | null }> {
    const via = await read(cdn, url);
    const direct = await read(origin, url);
    expect({ url, status: via.status, body: via.body }).toEqual({ url, status: direct.status, body: direct.body });
    return via;
  }

  /** Reads twice through Varnish: the second is a hit. */
  async function cached(url: string): Promise<void> {
    await read(cdn, url);
    expect({ url, cache: (await read(cdn, url)).cache }).toEqual({ url, cache: 'HIT' });
  }

  beforeAll(async () => {
    const model = loadBlogModel();
    const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'varnish-uploads-'));
    // Anonymous callers read everything: their answers are the ones a CDN shares.
    const reads = model.contentTypes.map((ct) => `api::${ct.info.singularName}.${ct.info.singularName}`).flatMap((uid) => [`${uid}.find`, `${uid}.findOne`]);
    router = createContentRouter({
      contentTypes: model.contentTypes,
      components: model.components,
      engine: testEngine(),
      i18n: { locales: model.permissions.locales.all, defaultLocale: model.permissions.locales.default },
      auth: blogAuthOptions({ public: { actions: [...reads, 'plugin::upload.content-api.find', 'plugin::upload.content-api.findOne'] } }),
      upload: { directory: uploads },
      logger: false,
      cacheControl: { public: { sMaxAge: 3600 } },
      cacheTags: { header: 'xkey' },
    });
    const app = express().use('/api', router);
    await router.ready;
    await seedDemo(app, FULL_KEY);
    router.on('cache.purge', ({ tags }) => {
      pending.push(purge(tags));
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const routerPort = (server.address() as AddressInfo).port;
    origin = `http://127.0.0.1:${routerPort}`;

    work = fs.mkdtempSync(path.join(os.tmpdir(), 'varnish-'));
    fs.writeFileSync(path.join(work, 'default.vcl'), varnishVcl('127.0.0.1', routerPort));
    const port = await freePort();
    cdn = `http://127.0.0.1:${port}`;
    varnish = spawn(VARNISHD!, ['-F', '-j', 'none', '-n', path.join(work, 'state'), '-a', `127.0.0.1:${port}`, '-f', path.join(work, 'default.vcl'), '-s', 'malloc,32m', '-p', 'default_ttl=3600'], { stdio: ['ignore', 'pipe', 'pipe'] });
    varnish.stdout!.on('data', (c: Buffer) => (varnishLog += c.toString()));
    varnish.stderr!.on('data', (c: Buffer) => (varnishLog += c.toString()));
    const exited = new Promise<never>((_, reject) => varnish.once('exit', (code) => reject(new Error(`varnishd exited (${code}):\n${varnishLog}`))));
    for (let i = 0; ; i++) {
      const up = await Promise.race([fetch(`${cdn}/api/about`).then((r) => r.status, () => 0), exited]);
      if (up === 200) break;
      if (i > 150) throw new Error(`varnishd did not answer on ${cdn}:\n${varnishLog}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 60_000);

  afterAll(async () => {
    if (varnish && varnish.exitCode === null) {
      const gone = new Promise((resolve) => varnish.once('exit', resolve));
      varnish.kill('SIGTERM');
      await gone;
    }
    await new Promise((resolve) => server?.close(resolve));
    await router?.engine.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test('an article list populating authors is purged by an author update, and nothing else is', async () => {
    const list = '/api/articles?populate=author&sort=title';
    const categories = '/api/categories?sort=name';
    await cached(list);
    await cached(categories);
    const authors = (await write('GET', '/api/authors')).data as { documentId: string; name: string }[];
    await write('PUT', `/api/authors/${authors[0]!.documentId}`, { data: { name: 'Ann Renamed' } });
    const after = await fresh(list);
    expect(after.cache).toBe('MISS');
    expect(after.body).toContain('Ann Renamed');
    expect((await read(cdn, categories)).cache).toBe('HIT'); // no author in it: kept
    expect((await read(cdn, list)).cache).toBe('HIT');
  });

  test('a findOne of a draft answers 404 until it is published, then the published document', async () => {
    const created = (await write('POST', '/api/articles?status=draft', { data: { title: 'Soon published', slug: 'soon-published' } })).data as { documentId: string };
    const url = `/api/articles/${created.documentId}?populate=*`;
    expect((await fresh(url)).status).toBe(404);
    expect((await read(cdn, url)).cache).toBe('HIT'); // Varnish keeps the 404 (default_ttl)
    await write('PUT', `/api/articles/${created.documentId}?status=published`, { data: { description: 'Now out' } });
    const after = await fresh(url);
    expect(after.status).toBe(200);
    expect(after.body).toContain('Now out');
  });

  test('a delete purges the document and the lists it was in', async () => {
    const created = (await write('POST', '/api/articles', { data: { title: 'Short-lived', slug: 'short-lived' } })).data as { documentId: string };
    const one = `/api/articles/${created.documentId}`;
    const list = '/api/articles?fields[0]=title';
    await cached(one);
    await cached(list);
    expect((await read(cdn, list)).body).toContain('Short-lived');
    await write('DELETE', one);
    expect((await fresh(one)).status).toBe(404);
    expect((await fresh(list)).body).not.toContain('Short-lived');
  });

  test('a relation set on one side purges the other: the category that gains a child, the one that loses it', async () => {
    const categories = (await write('GET', '/api/categories?sort=name')).data as { documentId: string; name: string }[];
    const id = (name: string) => categories.find((c) => c.name === name)!.documentId;
    const children = (name: string) => `/api/categories/${id(name)}?populate[children][fields][0]=name`;
    for (const name of ['Science', 'Technology']) await cached(children(name));
    expect((await read(cdn, children('Technology'))).body).toContain('"Web"');
    // Web's row stores its parent; Science's and Technology's rows do not change: only the link's tags purge them.
    await write('PUT', `/api/categories/${id('Web')}`, { data: { parent: id('Science') } });
    expect((await fresh(children('Science'))).body).toContain('"Web"');
    expect((await fresh(children('Technology'))).body).not.toContain('"Web"');
  });

  test('seeded random writes, reads through Varnish identical to the router', async () => {
    const seed = Number(process.env.VARNISH_MODEL_SEED ?? 7);
    const random = prng(seed);
    const urls = [
      '/api/articles', '/api/articles?populate=*', '/api/articles?populate[author][populate][avatar]=true&populate[categories]=true',
      '/api/articles?filters[author][name][$containsi]=a&sort=title', '/api/articles?locale=fr&populate=author', '/api/authors?populate=articles',
      '/api/categories?populate[articles][populate][author]=true&populate[parent]=true', '/api/categories?filters[articles][title][$containsi]=e',
      '/api/global?populate=*', '/api/global?locale=fr', '/api/upload/files', '/api/upload/files/1', '/api/categories?populate=children',
    ];
    const ids = async (plural: string): Promise<string[]> =>
      ((await write('GET', `/api/${plural}?status=draft&pagination[pageSize]=100`)).data as { documentId: string }[]).map((d) => d.documentId);
    const pick = <T>(list: readonly T[]): T | undefined => list[Math.floor(random() * list.length)];
    const writes: (() => Promise<string>)[] = [
      async () => (await write('POST', `/api/articles?status=${random() < 0.5 ? 'draft' : 'published'}`, { data: { title: `Model ${seed}-${random()}`, author: pick(await ids('authors')) ?? null } }), 'create article'),
      async () => { const id = pick(await ids('articles')); if (id) await write('PUT', `/api/articles/${id}?status=published`, { data: { title: `Published ${random()}` } }); return `publish ${id}`; },
      async () => { const id = pick(await ids('articles')); if (id) await write('PUT', `/api/articles/${id}?locale=fr`, { data: { title: `Fr ${random()}` } }); return `fr ${id}`; },
      async () => { const id = pick(await ids('articles')); if (id) await write('DELETE', `/api/articles/${id}`); return `delete ${id}`; },
      async () => { const id = pick(await ids('authors')); if (id) await write('PUT', `/api/authors/${id}`, { data: { name: `Author ${random()}` } }); return `author ${id}`; },
      async () => { const a = pick(await ids('authors')); const b = pick(await ids('articles')); if (a && b) await write('PUT', `/api/authors/${a}`, { data: { articles: { connect: [b] } } }); return `connect ${a} ${b}`; },
      async () => { const id = pick(await ids('categories')); if (id) await write('PUT', `/api/categories/${id}`, { data: { name: `Category ${random()}` } }); return `category ${id}`; },
      async () => { const c = await ids('categories'); const [a, b] = [pick(c), pick(c)]; if (a && b && a !== b) await write('PUT', `/api/categories/${a}`, { data: { parent: b } }); return `parent of ${a} ${b}`; },
      async () => (await write('PUT', '/api/global?locale=fr', { data: { siteName: `Site ${random()}` } }), 'global fr'),
      async () => {
        const form = new FormData();
        form.append('fileInfo', JSON.stringify({ alternativeText: `Alt ${random()}` }));
        const res = await fetch(`${origin}/api/upload?id=1`, { method: 'POST', headers: { authorization: `Bearer ${FULL_KEY}` }, body: form });
        await res.arrayBuffer();
        expect(res.status).toBe(200);
        await settle();
        return 'media 1';
      },
    ];
    const log: string[] = [];
    let hits = 0;
    for (let step = 0; step < 80; step++) {
      // After a write, every URL (each kept by Varnish, or not) is read; otherwise one at random.
      const documents = async () => [...(await ids('authors')).map((id) => `/api/authors/${id}?populate=articles`), ...(await ids('categories')).map((id) => `/api/categories/${id}?populate[articles][fields][0]=title&populate[children][fields][0]=name`)];
      const reads = random() < 0.25 ? (log.push(await pick(writes)!()), [...urls, ...(await documents())]) : [pick([...urls, ...(await documents())])!];
      for (const url of reads) {
        log.push(`read ${url}`);
        const via = await read(cdn, url);
        const direct = await read(origin, url);
        if (via.cache === 'HIT') hits++;
        if (via.status !== direct.status || via.body !== direct.body) {
          throw new Error(`seed ${seed} step ${step}: Varnish served a stale answer (replay: VARNISH_MODEL_SEED=${seed})\n${log.slice(-10).join('\n')}\nvarnish: ${via.status} ${via.body.slice(0, 300)}\nrouter:  ${direct.status} ${direct.body.slice(0, 300)}`);
        }
      }
    }
    expect(hits).toBeGreaterThan(10); // Varnish did serve from its cache
  }, 120_000);
});
