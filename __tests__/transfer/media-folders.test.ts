import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { exportStrapiExport } from '../../lib/transfer/export-strapi-export';
import { importStrapiExport } from '../../lib/transfer/import-strapi-export';
import { TransferError } from '../../lib/transfer/transfer-error';
import { blogTarget, editedFixture, readExport, rowCounts, tempDir, TOKEN, type BlogTarget, type ExportLines } from './transfer-helpers';

type Json = Record<string, unknown>;

const FILE = 'plugin::upload.file';
const FOLDER = 'plugin::upload.folder';

/**
 * The fixture (Strapi 5.54's export: its 8 files in its "API Uploads" folder, id 1, path /1) with a folder tree
 * added in Strapi's shapes: 2 "Covers" (/1/2, in 1), 3 "Thumbs" (/1/2/3, in 2), 4 "Elsewhere" (/4, at the root).
 * Files 3 and 4 move to 2, file 5 to 3, file 6 to 4, file 7 to the root (no folder link, folderPath /).
 */
const MOVES: Record<number, { folder: number | null; path: string; pos?: number }> = {
  3: { folder: 2, path: '/1/2', pos: 1 },
  4: { folder: 2, path: '/1/2', pos: 2 },
  5: { folder: 3, path: '/1/2/3', pos: 1 },
  6: { folder: 4, path: '/4', pos: 7 },
  7: { folder: null, path: '/' },
};

const at = '2026-11-25T11:00:00.000Z';
const folder = (id: number, name: string, folderPath: string, documentId: string): Json => ({
  type: FOLDER, id, data: { documentId, name, pathId: id, path: folderPath, createdAt: at, updatedAt: at, publishedAt: at, locale: null },
});
const parent = (child: number, of: number, pos: number): Json => ({
  kind: 'relation.circular', relation: 'manyToOne', left: { type: FOLDER, field: 'parent', ref: child }, right: { type: FOLDER, field: 'children', ref: of, pos },
});
const localizations = (id: number, documentId: string): Json => ({
  kind: 'relation.circular', relation: 'oneToMany', left: { type: FOLDER, ref: id, field: 'localizations' }, right: { type: FOLDER, ref: documentId },
});

const EXTRA = [
  { stage: 'entities', value: folder(2, 'Covers', '/1/2', 'covers00000000000000000a') },
  { stage: 'entities', value: folder(3, 'Thumbs', '/1/2/3', 'thumbs00000000000000000a') },
  { stage: 'entities', value: folder(4, 'Elsewhere', '/4', 'elsewhere000000000000000') },
  { stage: 'links', value: parent(2, 1, 1) },
  { stage: 'links', value: parent(3, 2, 1) },
  { stage: 'links', value: localizations(2, 'covers00000000000000000a') },
  { stage: 'links', value: localizations(3, 'thumbs00000000000000000a') },
  { stage: 'links', value: localizations(4, 'elsewhere000000000000000') },
  // A file uploaded in the admin panel: its creator, an admin user (a join column; not stored, as for any type).
  { stage: 'links', value: { kind: 'relation.basic', relation: 'oneToOne', left: { type: FILE, ref: 1, field: 'createdBy' }, right: { type: 'admin::user', ref: 1 } } },
];

/** The fixture with the folder tree above, edited further by `edit` (return undefined to drop a line). */
function withFolders(edit: (stage: string, value: Json) => Json | undefined = (_, v) => v, extra = EXTRA): Promise<string> {
  return editedFixture((stage, value) => {
    let v: Json | undefined = value;
    if (stage === 'entities' && value.type === FILE && MOVES[value.id as number]) {
      v = { ...value, data: { ...(value.data as Json), folderPath: MOVES[value.id as number]!.path } };
    }
    const left = value.left as Json | undefined;
    if (stage === 'links' && left?.type === FILE && left.field === 'folder' && MOVES[left.ref as number]) {
      const move = MOVES[left.ref as number]!;
      v = move.folder === null ? undefined : { ...value, right: { ...(value.right as Json), ref: move.folder, pos: move.pos } };
    }
    return v && edit(stage, v);
  }, extra);
}

/** What says where the files are and what the folder tree is: folder entities, folder links, files' folderPath. */
function folderLines(lines: ExportLines) {
  const documentIdOf = new Map(lines.entities.filter((e) => e.type === FILE).map((e) => [e.id, e.data.documentId]));
  const byFile = (l: ExportLines['links'][number]) => ({ ...l, left: { ...l.left, ref: documentIdOf.get(l.left.ref as number) } });
  const json = (v: unknown) => JSON.stringify(v); // key order included: Strapi's own
  return {
    folders: lines.entities.filter((e) => e.type === FOLDER).map(json).sort(),
    folderLinks: lines.links.filter((l) => l.left.type === FOLDER || l.right.type === FOLDER).map((l) => json(l.left.type === FILE ? byFile(l) : l)).sort(),
    folderPaths: Object.fromEntries(lines.entities.filter((e) => e.type === FILE).map((e) => [String(e.data.documentId), e.data.folderPath])),
  };
}

async function roundTrip(target: BlogTarget, file: string): Promise<string> {
  await importStrapiExport(target.router, file, { uploads: { directory: target.uploads } });
  const out = path.join(tempDir('folders'), 'export.tar');
  await exportStrapiExport(target.router, out, { uploads: { directory: target.uploads }, gzip: false });
  return out;
}

describe('media-library folders: import, export, import again', () => {
  let source: ExportLines;
  let a: BlogTarget;
  let firstFile: string;
  let first: ExportLines;

  beforeAll(async () => {
    const file = await withFolders();
    source = await readExport(file);
    a = await blogTarget();
    firstFile = await roundTrip(a, file);
    first = await readExport(firstFile);
  });

  it('the test archive holds the tree in Strapi\'s shapes (files in three folders and at the root)', () => {
    const lines = folderLines(source);
    expect(lines.folders).toHaveLength(4);
    expect(new Set(Object.values(lines.folderPaths))).toEqual(new Set(['/1', '/1/2', '/1/2/3', '/4', '/']));
    expect(lines.folderLinks.filter((l) => l.includes('"field":"folder"'))).toHaveLength(7);
    expect(lines.folderLinks.filter((l) => l.includes('"field":"parent"'))).toHaveLength(2);
  });

  it('writes back every folder entity, every folder link (files, parents, localizations) and every folderPath as they came', () => {
    expect(folderLines(first)).toEqual(folderLines(source));
  });

  it('an export of the imported export gives them again', async () => {
    const b = await blogTarget();
    const again = await readExport(await roundTrip(b, firstFile));
    expect(folderLines(again)).toEqual(folderLines(source));
  });

  it('the media library answers files in folders as Strapi does: folderPath and folder are private, never served', async () => {
    const res = await request(a.app).get('/api/upload/files').set('Authorization', `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(8);
    for (const file of res.body as Json[]) {
      expect(Object.keys(file)).not.toContain('folderPath');
      expect(Object.keys(file).filter((k) => k.includes('folder'))).toEqual([]);
    }
    const filtered = await request(a.app).get('/api/upload/files?filters[folderPath][$eq]=/1').set('Authorization', `Bearer ${TOKEN}`);
    expect(filtered.status).toBe(400);
    expect(filtered.body.error.message).toBe('Invalid key folderPath');
    const article = await request(a.app).get('/api/articles?populate=cover&pagination[pageSize]=100').set('Authorization', `Bearer ${TOKEN}`);
    expect(article.status).toBe(200);
    expect((article.body.data as Json[]).filter((e) => e.cover).length).toBeGreaterThan(0);
    expect(JSON.stringify(article.body)).not.toMatch(/folder/i);
  });

  it('a file updated through the media library keeps its folder', async () => {
    const target = await blogTarget();
    await roundTrip(target, await withFolders());
    const res = await request(target.app).post('/api/upload?id=5').set('Authorization', `Bearer ${TOKEN}`).field('fileInfo', JSON.stringify({ caption: 'moved?' }));
    expect(res.status).toBe(200);
    const file = path.join(tempDir('after-update'), 'export.tar');
    await exportStrapiExport(target.router, file, { uploads: { directory: target.uploads }, gzip: false });
    const after = await readExport(file);
    expect(after.entities.find((e) => e.type === FILE && e.id === 5)!.data).toMatchObject({ caption: 'moved?', folderPath: '/1/2/3' });
    expect(folderLines(after).folderLinks).toEqual(folderLines(source).folderLinks);
  });
});

describe('media-library folders that do not fit: nothing is imported, the problem names the file', () => {
  async function importError(file: string): Promise<{ error: TransferError; target: BlogTarget }> {
    const target = await blogTarget();
    const error: unknown = await importStrapiExport(target.router, file, { uploads: { directory: target.uploads } }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(TransferError);
    const counts = await rowCounts(target);
    expect(counts).toEqual(Object.fromEntries(Object.keys(counts).map((k) => [k, 0])));
    expect(fs.readdirSync(target.uploads)).toEqual([]);
    return { error: error as TransferError, target };
  }

  it('a file in a folder the export does not hold', async () => {
    const file = await withFolders(undefined, EXTRA.filter((e) => !JSON.stringify(e.value).includes('thumbs')));
    const { error } = await importError(file);
    expect(error.problems).toEqual([`${FILE} id 5, field folder: links to ${FOLDER} id 3, which is not in the export`]);
  });

  it('a folderPath that is no folder path, and a file in two folders', async () => {
    const file = await withFolders(
      (stage, v) => (stage === 'entities' && v.type === FILE && v.id === 2 ? { ...v, data: { ...(v.data as Json), folderPath: '/../etc' } } : v),
      [...EXTRA, { stage: 'links', value: { kind: 'relation.basic', relation: 'manyToOne', left: { type: FILE, field: 'folder', ref: 3 }, right: { type: FOLDER, field: 'files', ref: 4, pos: 1 } } }],
    );
    const { error } = await importError(file);
    expect(error.problems).toEqual([
      `${FILE} id 2, field folderPath: expected a folder path like "/" or "/1/3" (at most 1000 characters), got "/../etc"`,
      `link ${FILE} id 3 field folder: a second folder (a file is in one folder)`,
    ]);
  });

  it('a folder id twice, and a file link to something else than a folder', async () => {
    const file = await withFolders(undefined, [
      ...EXTRA,
      { stage: 'entities', value: folder(4, 'Again', '/4', 'again0000000000000000000') },
      { stage: 'links', value: { kind: 'relation.basic', relation: 'manyToOne', left: { type: FILE, field: 'folder', ref: 8 }, right: { type: 'api::author.author', field: 'files', ref: 1 } } },
    ]);
    const { error } = await importError(file);
    expect(error.problems).toEqual([
      `entity ${FOLDER} id 4: the id appears twice`,
      `link ${FILE} id 8 field folder: wrong target api::author.author, a file's folder is a ${FOLDER}`,
    ]);
  });
});
