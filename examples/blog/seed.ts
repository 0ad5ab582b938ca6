import type { AddressInfo } from 'node:net';
import type express from 'express';
import sharp from 'sharp';

type Json = Record<string, unknown>;

async function image(width: number, height: number, color: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer();
}

/**
 * Loads demo data through the app's own REST API (uploads, authors, categories, articles with components,
 * dynamic zones, media, a French localization, the single types), as a client would.
 */
export async function seedDemo(app: express.Express, token: string): Promise<void> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  const headers = { authorization: `Bearer ${token}` };
  const call = async (method: string, path: string, body?: Json): Promise<Json> => {
    const res = await fetch(base + path, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as Json;
    if (!res.ok) throw new Error(`seed ${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const upload = async (name: string, buffer: Buffer): Promise<number> => {
    const form = new FormData();
    form.append('files', new Blob([buffer], { type: 'image/png' }), name);
    const res = await fetch(`${base}/upload`, { method: 'POST', headers, body: form });
    const json = (await res.json()) as { id: number }[];
    if (!res.ok) throw new Error(`seed upload: ${res.status} ${JSON.stringify(json)}`);
    return json[0]!.id;
  };
  try {
    const cover = await upload('cover.png', await image(1200, 800, '#3b82f6'));
    const avatar = await upload('avatar.png', await image(300, 300, '#f59e0b'));
    const logo = await upload('logo.png', await image(64, 64, '#10b981'));
    const doc = (r: Json): string => (r.data as Json).documentId as string;
    const ann = doc(await call('POST', '/authors', { data: { name: 'Ann Archer', email: 'ann@example.com', avatar, bio: 'Writes about the web.' } }));
    const bob = doc(await call('POST', '/authors', { data: { name: 'Bob Brown', email: 'bob@example.com', bio: 'Science writer.' } }));
    const tech = doc(await call('POST', '/categories', { data: { name: 'Technology', slug: 'technology' } }));
    const web = doc(await call('POST', '/categories', { data: { name: 'Web', slug: 'web', parent: tech } }));
    const science = doc(await call('POST', '/categories', { data: { name: 'Science', slug: 'science' } }));
    const first = doc(
      await call('POST', '/articles', {
        data: {
          title: 'Hello content-router',
          slug: 'hello-content-router',
          description: 'A Strapi v5 REST API on MongoDB, mounted in Express.',
          views: 120,
          featured: true,
          publishDate: '2026-01-15',
          cover,
          author: ann,
          categories: [tech, web],
          seo: { metaTitle: 'Hello', metaDescription: 'First article', shareImage: cover, socials: [{ network: 'twitter', url: 'https://twitter.com/example' }] },
          blocks: [
            { __component: 'shared.rich-text', body: '# Welcome\n\nThis is **content-router**.' },
            { __component: 'shared.quote', title: 'Tip', body: 'Try populate=* on this article.' },
            { __component: 'shared.media', file: cover },
          ],
        },
      }),
    );
    await call('PUT', `/articles/${first}?locale=fr`, { data: { title: 'Bonjour content-router', description: 'Une API REST Strapi v5 sur MongoDB.' } });
    await call('POST', '/articles', { data: { title: 'Populate in one round trip', slug: 'populate-one-round-trip', views: 42, author: bob, categories: [science], publishDate: '2026-02-01' } });
    await call('POST', '/articles?status=draft', { data: { title: 'A draft nobody sees', slug: 'draft' } });
    await call('PUT', '/global', { data: { siteName: 'content-router demo', siteDescription: 'The example app', favicon: logo, defaultSeo: { metaTitle: 'content-router' } } });
    await call('PUT', '/about', { data: { title: 'About', blocks: [{ __component: 'shared.quote', title: 'Why', body: 'Strapi clients, MongoDB storage.' }] } });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}
