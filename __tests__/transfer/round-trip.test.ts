import fs from 'node:fs';
import path from 'node:path';
import { exportStrapiExport } from '../../lib/transfer/export-strapi-export';
import { importStrapiExport } from '../../lib/transfer/import-strapi-export';
import { blogTarget, FIXTURE, readExport, tempDir, type BlogTarget, type ExportLines } from './transfer-helpers';

type Data = Record<string, unknown>;

let a: BlogTarget;
let b: BlogTarget;
let exported: string;
let ours: ExportLines;

beforeAll(async () => {
  a = await blogTarget();
  await importStrapiExport(a.router, FIXTURE, { uploads: { directory: a.uploads } });
  exported = path.join(tempDir('export'), 'export.tar.gz.enc');
  const result = await exportStrapiExport(a.router, exported, { uploads: { directory: a.uploads }, key: 'a key' });
  expect(result.assets).toBe(11);
  ours = await readExport(exported, 'a key');
  b = await blogTarget();
  await importStrapiExport(b.router, exported, { uploads: { directory: b.uploads }, key: 'a key' });
});

/**
 * Every row of a collection without the engine's `_id` (the claims keep theirs: the type's uid), by id; of the
 * kept lines, all but `metadata.json`, which is the last export's (its `createdAt` is when that was written).
 */
async function rows(target: BlogTarget, collection: string): Promise<Data[]> {
  const found = await target.engine.find(collection, collection === '_strapi_transfer' ? { stage: { $ne: 'metadata' } } : {}, { sort: { id: 1, seq: 1 } });
  return found.map(({ _id, ...row }) => (collection === '_single_types' ? { _id, ...row } : row));
}

/** Entity data without the ids of its components (ids are the store's own, as in Strapi's import). */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'id').map(([k, v]) => [k, withoutIds(v)]));
  return value;
}

const versionKey = (e: ExportLines['entities'][number]) => `${e.type} ${String(e.data.documentId)} ${String(e.data.locale)} ${e.data.publishedAt === null ? 'draft' : 'published'}`;

describe('export, then import into an empty store (gzip and Strapi\'s encryption)', () => {
  it('gives the same rows in every collection, ids included, and the same kept lines', async () => {
    const collections = [...a.router.registry.contentTypes.values()].map((ct) => ct.collectionName);
    for (const name of [...collections, '_single_types', '_strapi_transfer']) {
      const before = await rows(a, name);
      expect(before.length).toBeGreaterThan(0);
      expect({ name, rows: await rows(b, name) }).toEqual({ name, rows: before });
    }
  });

  it('gives the same files, byte for byte', () => {
    const names = fs.readdirSync(a.uploads).sort();
    expect(names).toHaveLength(11);
    expect(fs.readdirSync(b.uploads).sort()).toEqual(names);
    for (const name of names) expect(fs.readFileSync(path.join(b.uploads, name)).equals(fs.readFileSync(path.join(a.uploads, name)))).toBe(true);
  });
});

describe('our export, compared with the Strapi export it came from', () => {
  let fixture: ExportLines;
  beforeAll(async () => {
    fixture = await readExport(FIXTURE);
  });

  it('holds every entity of the model with the same data (component ids aside), the files\' folderPath included', () => {
    const model = (e: ExportLines['entities'][number]) => e.type.startsWith('api::') || e.type === 'plugin::upload.file';
    const mine = new Map(ours.entities.filter(model).map((e) => [versionKey(e), e]));
    const theirs = fixture.entities.filter(model);
    expect(mine.size).toBe(theirs.length);
    for (const e of theirs) {
      const got = mine.get(versionKey(e));
      expect({ key: versionKey(e), data: withoutIds(got?.data) }).toEqual({ key: versionKey(e), data: withoutIds(e.data) });
    }
    expect(theirs.filter((e) => e.data.folderPath === '/1')).toHaveLength(8); // the fixture's files are in Strapi's "API Uploads" folder
  });

  // Positions on the inverse side (Strapi's inverse order column, with its gaps) are compared by rank below.
  it('links the same versions in the same order (relations with their owning positions, media)', () => {
    const describeLinks = (lines: ExportLines) => {
      const version = new Map(lines.entities.map((e) => [`${e.type}:${e.id}`, versionKey(e)]));
      const relevant = lines.links.filter((l) => l.left.field !== 'localizations' && (l.kind === 'relation.morph' ? !String(l.right.type).includes('.') || String(l.right.type).startsWith('api::') : String(l.left.type).startsWith('api::')));
      // Owning positions by rank within (row, field): Strapi's order column has gaps, only the order counts.
      const group = (l: (typeof relevant)[number]) => `${String(l.left.type)}:${String(l.left.ref)}:${String(l.left.field)}`;
      const rank = new Map<unknown, number>();
      const groups = new Map<string, typeof relevant>();
      for (const l of relevant) if (l.kind !== 'relation.morph') groups.set(group(l), [...(groups.get(group(l)) ?? []), l]);
      for (const list of groups.values()) [...list].sort((x, y) => Number(x.left.pos ?? 0) - Number(y.left.pos ?? 0)).forEach((l, i) => rank.set(l, l.left.pos === undefined ? -1 : i));
      return relevant
        .map((l) => `${l.kind} ${version.get(`${String(l.left.type)}:${String(l.left.ref)}`)} ${String(l.left.field)} ${String(rank.get(l) ?? '')} -> ${version.get(`${String(l.right.type)}:${String(l.right.ref)}`)} ${String(l.right.field ?? '')}${l.kind === 'relation.morph' ? ` ${String(l.right.pos)}` : ''}`)
        .sort();
    };
    const theirs = describeLinks(fixture);
    expect(theirs.length).toBeGreaterThan(300);
    expect(describeLinks(ours)).toEqual(theirs);
  });

  it('keeps the order of every to-many inverse side (Strapi\'s inverse order column, by rank within the target row)', () => {
    const inverseLists = (lines: ExportLines) => {
      const version = new Map(lines.entities.map((e) => [`${e.type}:${e.id}`, versionKey(e)]));
      const lists = new Map<string, { pos: number; seq: number; owner: string }[]>();
      lines.links.forEach((l, seq) => {
        if (l.kind === 'relation.morph' || typeof l.right.pos !== 'number' || !String(l.left.type).startsWith('api::')) return;
        const key = `${version.get(`${String(l.right.type)}:${String(l.right.ref)}`)} ${String(l.right.field)}`;
        lists.set(key, [...(lists.get(key) ?? []), { pos: l.right.pos, seq, owner: version.get(`${String(l.left.type)}:${String(l.left.ref)}`)! }]);
      });
      return Object.fromEntries([...lists].map(([key, list]) => [key, list.sort((x, y) => x.pos - y.pos || x.seq - y.seq).map((x) => x.owner)]));
    };
    const theirs = inverseLists(fixture);
    expect(Object.keys(theirs).filter((k) => k.includes(' articles')).length).toBeGreaterThan(5);
    expect(inverseLists(ours)).toEqual(theirs);
  });

  it('writes back what the import kept: Strapi\'s roles, permissions, locales and folders, its schemas and configuration', () => {
    const kept = (lines: ExportLines) => lines.entities.filter((e) => !e.type.startsWith('api::') && e.type !== 'plugin::upload.file');
    expect(kept(ours)).toEqual(kept(fixture));
    expect(ours.other.get('schemas')).toEqual(fixture.other.get('schemas'));
    expect(ours.other.get('configuration')).toEqual(fixture.other.get('configuration'));
  });
});
