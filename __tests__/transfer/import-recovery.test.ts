import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { StorageProvider } from '../../lib';
import { exportStrapiExport } from '../../lib/transfer/export-strapi-export';
import { importStrapiExport } from '../../lib/transfer/import-strapi-export';
import { TransferError } from '../../lib/transfer/transfer-error';
import { blogTarget, FIXTURE, rowCounts, tempDir, type BlogTarget } from './transfer-helpers';

/** The store as it was before the import: no row, no kept line, no marker, nothing in the uploads folder. */
async function expectUntouched(target: BlogTarget): Promise<void> {
  const counts = await rowCounts(target);
  expect(counts).toEqual(Object.fromEntries(Object.keys(counts).map((k) => [k, 0])));
  expect(await target.engine.count('_strapi_import', {})).toBe(0);
  expect(fs.readdirSync(target.uploads)).toEqual([]);
}

/** A provider keeping its objects in a Map. */
function mapProvider(): StorageProvider & { objects: Map<string, Buffer> } {
  const objects = new Map<string, Buffer>();
  return {
    name: 'map',
    objects,
    async upload(file) {
      const chunks: Buffer[] = [];
      for await (const chunk of file.stream) chunks.push(chunk as Buffer);
      objects.set(`${file.hash}${file.ext}`, Buffer.concat(chunks));
      return { url: `/map/${file.hash}${file.ext}` };
    },
    async delete(file) {
      objects.delete(`${file.hash}${file.ext}`);
    },
  };
}

/** Aborts `controller` once the entities are written (the stage's last event comes with the first file stored). */
const abortAfterEntities = (controller: AbortController) => (event: { stage: string; done: boolean }) => {
  if (event.stage === 'entities' && event.done) controller.abort(new Error('stopped by the test'));
};

/** The pid of a process that has ended. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid!;

describe('an import stopped by its signal in the middle of its write pass takes everything back', () => {
  it('with the uploads folder (files staged)', async () => {
    const target = await blogTarget();
    const controller = new AbortController();
    const error: unknown = await importStrapiExport(target.router, FIXTURE, { uploads: { directory: target.uploads }, signal: controller.signal, onProgress: abortAfterEntities(controller) }).catch((e: unknown) => e);
    expect(controller.signal.aborted).toBe(true);
    expect(error).toBeInstanceOf(TransferError);
    expect((error as Error).message).toBe('the import was interrupted (stopped by the test); nothing was imported');
    await expectUntouched(target);
  });

  it('with a storage provider (each object recorded before it is stored, deleted on the way back)', async () => {
    const target = await blogTarget();
    const provider = mapProvider();
    const controller = new AbortController();
    const error: unknown = await importStrapiExport(target.router, FIXTURE, { uploads: { provider }, signal: controller.signal, onProgress: abortAfterEntities(controller) }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^the import was interrupted/);
    expect(provider.objects.size).toBe(0);
    await expectUntouched(target);
    // The same import then runs, and its objects stay.
    const result = await importStrapiExport(target.router, FIXTURE, { uploads: { provider } });
    expect(result.recovered).toBeUndefined();
    expect(provider.objects.size).toBe(11);
    expect(await target.engine.count('_strapi_import', {})).toBe(0);
  });
});

describe('an import left unfinished by a process that is gone (crash, kill -9)', () => {
  /** What a killed import leaves: its marker, a row in its id block, a staged file. */
  async function leftBehind(target: BlogTarget, marker: Record<string, unknown>): Promise<string> {
    const staging = path.join(target.uploads, '.import-dead');
    fs.mkdirSync(staging);
    fs.writeFileSync(path.join(staging, 'left_1.png'), 'x');
    const now = new Date().toISOString();
    await target.engine.insertMany('_strapi_import', [{
      _id: 'import', token: 'dead', state: 'writing', file: 'old.tar', owner: { host: hostname(), pid: deadPid() }, startedAt: now, heartbeat: now,
      ranges: [{ collection: 'authors', first: 1000, last: 1009, rows: true }], claims: ['api::global.global'], replaced: [], staging, uploads: target.uploads, ...marker,
    }]);
    await target.engine.insertMany('authors', [{ id: 1003, documentId: 'left', name: 'Left behind', locale: null, _status: 'published' }]);
    await target.engine.insertMany('_single_types', [{ _id: 'api::global.global', documentId: 'left' }]);
    return staging;
  }

  it('the next import rolls it back, then imports', async () => {
    const target = await blogTarget();
    const staging = await leftBehind(target, {});
    await expect(exportStrapiExport(target.router, path.join(tempDir('export'), 'x.tar'), { uploads: { directory: target.uploads } })).rejects.toThrow(
      /^the store holds an import of old\.tar that did not finish \(started .*\): run the import again, which rolls it back/,
    );
    const result = await importStrapiExport(target.router, FIXTURE, { uploads: { directory: target.uploads } });
    expect(result.recovered).toMatch(/^an earlier import of old\.tar \(started .*\) that did not finish was rolled back$/);
    expect(await target.engine.count('authors', { documentId: 'left' })).toBe(0);
    expect(await target.engine.count('authors', {})).toBe(4);
    expect(await target.engine.count('_single_types', { documentId: 'left' })).toBe(0);
    expect(await target.engine.count('_strapi_import', {})).toBe(0);
    expect(fs.existsSync(staging)).toBe(false);
    expect(fs.readdirSync(target.uploads)).toHaveLength(11);
  });

  it('past its commit point it is completed: its staged files move in, and the store is full', async () => {
    const target = await blogTarget();
    await leftBehind(target, { state: 'committing' });
    const error: unknown = await importStrapiExport(target.router, FIXTURE, { uploads: { directory: target.uploads } }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^an earlier import of old\.tar \(started .*\) that did not finish had written everything: it was completed; the store is not empty/);
    expect(fs.readdirSync(target.uploads)).toEqual(['left_1.png']);
    expect(await target.engine.count('authors', { documentId: 'left' })).toBe(1);
    expect(await target.engine.count('_strapi_import', {})).toBe(0);
  });

  it('an import that may still run (another host, a fresh heartbeat) is refused; one silent for 5 minutes is rolled back', async () => {
    const target = await blogTarget();
    await leftBehind(target, { owner: { host: 'other-host', pid: 1 } });
    const error: unknown = await importStrapiExport(target.router, FIXTURE, { uploads: { directory: target.uploads } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransferError);
    expect((error as Error).message).toMatch(/^an import of old\.tar into this store is running \(process 1 on other-host, since .*\): wait for it to end/);
    expect(await target.engine.count('authors', { documentId: 'left' })).toBe(1);

    await target.engine.updateMany('_strapi_import', { _id: 'import' }, { $set: { heartbeat: new Date(Date.now() - 6 * 60 * 1000).toISOString() } });
    const result = await importStrapiExport(target.router, FIXTURE, { uploads: { directory: target.uploads } });
    expect(result.recovered).toMatch(/was rolled back$/);
    expect(await target.engine.count('authors', {})).toBe(4);
  });
});

describe('a router started on a store holding an unfinished import', () => {
  it('warns at start-up, naming the import and what to do', async () => {
    const { createContentRouter } = await import('../../lib');
    const { loadBlogModel } = await import('../../examples/blog/model');
    const { testEngine } = await import('../helpers/test-engine');
    const engine = testEngine();
    const now = new Date().toISOString();
    await engine.insertMany('_strapi_import', [{ _id: 'import', token: 't', state: 'writing', file: 'site.tar.gz', owner: { host: 'h', pid: 42 }, startedAt: now, heartbeat: now, ranges: [], claims: [], replaced: [], staging: null, uploads: null }]);
    const warnings: string[] = [];
    const model = loadBlogModel();
    const router = createContentRouter({ contentTypes: model.contentTypes, components: model.components, engine, i18n: { locales: ['en', 'fr', 'de'], defaultLocale: 'en' }, logger: { info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined } });
    await router.ready;
    expect(warnings).toEqual([
      `content-router: the store holds an import of site.tar.gz that did not finish (started ${now} by process 42 on h): part of it may be served; run the import again (content-router import), which rolls it back first (docs/transfer.md, "All or nothing")`,
    ]);
  });
});
