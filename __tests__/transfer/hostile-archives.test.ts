import fs from 'node:fs';
import path from 'node:path';
import { importStrapiExport } from '../../lib/transfer/import-strapi-export';
import { TransferError } from '../../lib/transfer/transfer-error';
import type { TransferLimits } from '../../lib/transfer/transfer-limits';
import { craftArchive, gzipBomb, ustarHeader, type CraftedEntry } from './hostile-archives';
import { blogTarget, editedFixture, FIXTURE, rowCounts, tempDir, type BlogTarget } from './transfer-helpers';

/**
 * Hostile exports, generated here: each is refused with a TransferError naming the entry (and the line, the entity
 * and the field where there is one), nothing is written, and the process's memory grows by far less than the
 * archive would inflate to. Memory is sampled while the import runs (heap and buffers); the bound is generous
 * (the point is that it does not grow with the hostile input), and nothing is timed.
 */
const MiB = 1024 * 1024;
const HEAP_BOUND = 256 * MiB;

/** Runs `fn`, sampling the heap and buffers: the largest growth seen over what they were at the start. */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; growth: number }> {
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const start = used();
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, used())), 1);
  try {
    const value = await fn();
    peak = Math.max(peak, used());
    return { value, growth: peak - start };
  } finally {
    clearInterval(timer);
  }
}

async function expectUntouched(target: BlogTarget): Promise<void> {
  const counts = await rowCounts(target);
  expect(counts).toEqual(Object.fromEntries(Object.keys(counts).map((k) => [k, 0])));
  expect(fs.readdirSync(target.uploads)).toEqual([]);
  expect(await target.engine.count('_strapi_import', {})).toBe(0);
}

/** The import's refusal of `file` (a TransferError), with the memory it took; the store is left untouched. */
async function refusal(file: string, limits?: TransferLimits): Promise<{ error: TransferError; growth: number }> {
  const target = await blogTarget();
  const { value: error, growth } = await measured(() =>
    importStrapiExport(target.router, file, { uploads: { directory: target.uploads }, limits }).then(
      () => undefined,
      (e: unknown) => e,
    ),
  );
  expect(error).toBeInstanceOf(TransferError);
  await expectUntouched(target);
  return { error: error as TransferError, growth };
}

const entityLine = (value: unknown): string => `${JSON.stringify(value)}\n`;
const author = (id: number, data: Record<string, unknown> = {}) => ({ type: 'api::author.author', id, data: { documentId: `author${id}`, name: `Author ${id}`, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', publishedAt: '2026-01-01T00:00:00.000Z', locale: null, ...data } });
const ENTITIES = 'entities/entities_00001.jsonl';

describe('archive entries that leave the archive or are not files', () => {
  it.each<[string, CraftedEntry, RegExp]>([
    ['a ".." in a name', { name: '../evil.txt', body: 'x' }, /the entry "\.\.\/evil\.txt" leaves the archive/],
    ['a ".." under assets/uploads', { name: 'assets/uploads/../../../tmp/evil.png', body: 'x' }, /the entry "assets\/uploads\/\.\.\/\.\.\/\.\.\/tmp\/evil\.png" leaves the archive/],
    ['an absolute name', { name: '/tmp/evil.png', body: 'x' }, /the entry "\/tmp\/evil\.png" has an absolute name/],
    ['a backslash', { name: 'assets\\uploads\\evil.png', body: 'x' }, /has a backslash/],
    ['a symbolic link', { name: 'assets/uploads/a.png', type: 'symlink', linkname: '/etc/passwd' }, /the entry "assets\/uploads\/a\.png" is a symlink: a Strapi export holds regular files only/],
    ['a hard link', { name: 'assets/uploads/b.png', type: 'link', linkname: 'schemas/schemas_00001.jsonl' }, /the entry "assets\/uploads\/b\.png" is a link: a Strapi export holds regular files only/],
    ['a device', { name: 'assets/uploads/c.png', type: 'character-device' }, /is a character-device/],
    ['a folder under assets/uploads', { name: 'assets/uploads/sub/d.png', body: 'x' }, /assets\/uploads\/sub\/d\.png: not a file of assets\/uploads/],
  ])('%s is refused', async (_name, entry, message) => {
    const file = await craftArchive([{ name: ENTITIES, body: entityLine(author(1)) }, entry]);
    const { error } = await refusal(file);
    expect(error.message).toMatch(message);
  });

  it.each([
    ['inside the entities file', 100_000, /^entities\/entities_00001\.jsonl: damaged archive \(.+\); nothing was imported$/],
    ['among the media files', 200_000, /^\/.*export\.tar: damaged archive \(.+\); nothing was imported$/],
  ])('an archive cut short %s is a damaged archive (a TransferError)', async (_where, bytes, message) => {
    const file = path.join(tempDir('truncated'), 'export.tar');
    fs.writeFileSync(file, fs.readFileSync(FIXTURE).subarray(0, bytes));
    expect((await refusal(file)).error.message).toMatch(message);
  });

  it('an asset entry twice is refused', async () => {
    const file = await craftArchive([{ name: 'assets/uploads/e.png', body: 'one' }, { name: 'assets/uploads/e.png', body: 'two' }]);
    expect((await refusal(file)).error.message).toMatch(/assets\/uploads\/e\.png: the archive holds it twice/);
  });
});

describe('decompression bombs and huge lines: refused at the limit, memory bounded', () => {
  it('a gzip bomb: 256 MiB of zeros with no line end in an entities file (one 200 KB file)', async () => {
    const file = await craftArchive([{ name: ENTITIES, size: 256 * MiB, fill: 0x20 }], true);
    expect(fs.statSync(file).size).toBeLessThan(1 * MiB);
    const { error, growth } = await refusal(file);
    expect(error.message).toBe(`${ENTITIES} line 1: longer than 16777216 bytes (maxLineBytes); nothing was imported`);
    expect(growth).toBeLessThan(HEAP_BOUND);
  });

  it('a media file whose header declares 4 GiB, in a gzip of a few KB', async () => {
    const file = await gzipBomb(ustarHeader('assets/uploads/bomb.png', 4 * 1024 * MiB), 1 * MiB);
    const { error, growth } = await refusal(file);
    expect(error.message).toBe('assets/uploads/bomb.png: 4294967296 bytes, over the 1073741824-byte limit (maxAssetBytes); nothing was imported');
    expect(growth).toBeLessThan(HEAP_BOUND);
  });

  it('an asset over a lower maxAssetBytes', async () => {
    const file = await craftArchive([{ name: 'assets/uploads/big.png', size: 2 * MiB }]);
    const { error } = await refusal(file, { maxAssetBytes: MiB });
    expect(error.message).toMatch(/^assets\/uploads\/big\.png: 2097152 bytes, over the 1048576-byte limit \(maxAssetBytes\)/);
  });

  it.each([
    ['an entity line of 20 MiB', ENTITIES, 1],
    ['a configuration line of 20 MiB (kept aside: bounded too)', 'configuration/configuration_00001.jsonl', 1],
    ['a schema line of 20 MiB', 'schemas/schemas_00001.jsonl', 1],
    ['a links line of 20 MiB, after two good lines', 'links/links_00001.jsonl', 3],
  ])('%s', async (_name, name, line) => {
    const good = name.startsWith('links') ? '{"kind":"relation.basic","relation":"manyToOne","left":{"type":"plugin::x.y","ref":1,"field":"a"},"right":{"type":"plugin::x.z","ref":1}}\n'.repeat(2) : '';
    const huge = `{"type":"api::author.author","id":1,"data":{"documentId":"a","name":"${'x'.repeat(20 * MiB)}"}}\n`;
    const file = await craftArchive([{ name, body: good + huge }]);
    const { error, growth } = await refusal(file);
    expect(error.message).toBe(`${name} line ${line}: longer than 16777216 bytes (maxLineBytes); nothing was imported`);
    expect(growth).toBeLessThan(HEAP_BOUND);
  });

  it('a gzip bomb in a configuration line kept aside: 512 MiB of one JSON string (the 1.4 MB archive of the review peaked at 2.5 GB)', async () => {
    const head = '{"key":"plugin_content_manager_configuration","value":"';
    const file = await craftArchive([{ name: 'configuration/configuration_00001.jsonl', head, size: 512 * MiB, fill: 0x79 }], true);
    expect(fs.statSync(file).size).toBeLessThan(1 * MiB);
    const { error, growth } = await refusal(file);
    expect(error.message).toBe('configuration/configuration_00001.jsonl line 1: longer than 16777216 bytes (maxLineBytes); nothing was imported');
    expect(growth).toBeLessThan(HEAP_BOUND);
  });

  it('a metadata.json of 20 MiB, and one that is not a JSON object', async () => {
    const big = await craftArchive([{ name: 'metadata.json', size: 20 * MiB, fill: 0x20 }]);
    expect((await refusal(big)).error.message).toBe('metadata.json: 20971520 bytes, over the 16777216-byte limit (maxLineBytes); nothing was imported');
    const array = await craftArchive([{ name: 'metadata.json', body: '[1,2]' }]);
    expect((await refusal(array)).error.message).toBe('metadata.json: not a JSON object; nothing was imported');
    const broken = await craftArchive([{ name: 'metadata.json', body: '{"strapi":' }]);
    expect((await refusal(broken)).error.message).toBe('metadata.json: not JSON; nothing was imported');
  });

  it('a value nested 100,000 levels deep', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const file = await craftArchive([{ name: ENTITIES, body: `{"type":"api::author.author","id":1,"data":{"documentId":"a","name":${deep}}}\n` }]);
    const { error, growth } = await refusal(file);
    expect(error.message).toMatch(/^entities\/entities_00001\.jsonl line 1: nested deeper than 64 levels at data\.name\[0\]\[0\]/);
    expect(growth).toBeLessThan(HEAP_BOUND);
  });
});

describe('prototype keys', () => {
  it.each([
    ['"__proto__": null in entity data', '{"type":"api::author.author","id":1,"data":{"documentId":"a","__proto__":null}}', 'the key "__proto__" at data'],
    ['"__proto__": [] in entity data', '{"type":"api::author.author","id":1,"data":{"documentId":"a","__proto__":["x"]}}', 'the key "__proto__" at data'],
    ['"__proto__" deep in a json value', '{"type":"api::author.author","id":1,"data":{"documentId":"a","extra":{"a":[{"__proto__":{"polluted":true}}]}}}', 'the key "__proto__" at data.extra.a[0]'],
    ['an escaped "\\u005f_proto__"', '{"type":"api::author.author","id":1,"data":{"documentId":"a","\\u005f_proto__":{}}}', 'the key "__proto__" at data'],
    ['"__proto__" at the top of a line', '{"__proto__":{"type":"api::author.author"},"id":1}', 'the key "__proto__" at the line'],
  ])('%s is refused, naming the line', async (_name, line, where) => {
    const file = await craftArchive([{ name: ENTITIES, body: `${entityLine(author(7))}${line}\n` }]);
    const { error } = await refusal(file);
    expect(error.message).toBe(`${ENTITIES} line 2: ${where}: a prototype key is never data; nothing was imported`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('"__proto__" in a configuration line is refused too', async () => {
    const file = await craftArchive([{ name: 'configuration/configuration_00001.jsonl', body: '{"key":"a","value":{"__proto__":{"isAdmin":true}}}\n' }]);
    expect((await refusal(file)).error.message).toBe('configuration/configuration_00001.jsonl line 1: the key "__proto__" at value: a prototype key is never data; nothing was imported');
  });

  it('"constructor", "prototype" and "toString" are no attributes; a link field "constructor" is no relation', async () => {
    const file = await editedFixture((stage, v) => {
      if (stage !== 'entities' || v.type !== 'api::author.author') return v;
      if (v.id === 1) return { ...v, data: { ...(v.data as object), constructor: null } };
      if (v.id === 2) return { ...v, data: { ...(v.data as object), prototype: ['x'] } };
      if (v.id === 3) return { ...v, data: { ...(v.data as object), toString: { a: 1 } } };
      return v;
    }, [{ stage: 'links', value: { kind: 'relation.basic', relation: 'manyToOne', left: { type: 'api::article.article', ref: 1, field: 'constructor' }, right: { type: 'api::author.author', ref: 1 } } }]);
    const { error } = await refusal(file);
    expect(error.problems).toEqual([
      'api::author.author id 1, field constructor: is not an attribute of the model',
      'api::author.author id 2, field prototype: is not an attribute of the model',
      'api::author.author id 3, field toString: is not an attribute of the model',
      'link api::article.article id 1 field constructor: the model has no relation constructor stored on api::article.article',
    ]);
  });
});

describe('duplicates and wrong types', () => {
  it('an entity id twice, a file named twice, a format that is no object, a hash that leaves the folder', async () => {
    let fileRows = 0;
    const file = await editedFixture((stage, v) => {
      if (stage !== 'entities') return v;
      if (v.type === 'plugin::upload.file') {
        fileRows++;
        const data = v.data as Record<string, unknown>;
        if (fileRows === 1) return { ...v, data: { ...data, hash: '../../../tmp/evil' } };
        if (fileRows === 2) return { ...v, data: { ...data, formats: { thumbnail: 'x' } } };
        if (fileRows === 3) return { ...v, data: { ...data, formats: { 'a/b': {} } } };
      }
      return v;
    }, [{ stage: 'entities', value: author(1) }]);
    const { error } = await refusal(file);
    expect(error.problems).toEqual(expect.arrayContaining([
      'entity api::author.author id 1: the id appears twice',
      expect.stringMatching(/^plugin::upload\.file id \d+, field hash: "\.\.\/\.\.\/\.\.\/tmp\/evil" is not a storage key/),
      expect.stringMatching(/^plugin::upload\.file id \d+, field formats\.thumbnail: expected an object$/),
      expect.stringMatching(/^plugin::upload\.file id \d+, field formats: "a\/b" is not a format name$/),
    ]));
  });

  it('two file rows naming one stored file', async () => {
    let first: Record<string, unknown> | undefined;
    const file = await editedFixture((stage, v) => {
      if (stage !== 'entities' || v.type !== 'plugin::upload.file') return v;
      const data = v.data as Record<string, unknown>;
      if (!first) {
        first = data;
        return v;
      }
      return { ...v, data: { ...data, hash: first.hash, ext: first.ext } };
    });
    const { error } = await refusal(file);
    expect(error.problems).toEqual(expect.arrayContaining([expect.stringMatching(/^plugin::upload\.file id \d+, field hash: the file \w+\.\w+ is also plugin::upload\.file id \d+$/)]));
  });

  const file = (data: Record<string, unknown>) => ({ type: 'plugin::upload.file', id: 1, data: { documentId: 'f1', name: 'a.png', hash: 'a_1', ext: '.png', mime: 'image/png', size: 1, url: '/uploads/a_1.png', provider: 'local', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', publishedAt: '2026-01-01T00:00:00.000Z', locale: null, ...data } });
  it.each([
    ['a format that is null', file({ formats: { thumbnail: null } }), 'plugin::upload.file id 1, field formats.thumbnail: expected an object'],
    ['formats that are an array', file({ formats: [{ hash: 'b_1', ext: '.png' }] }), 'plugin::upload.file id 1, field formats: expected an object'],
    ['an extension with a slash', file({ ext: '.png/../../x' }), 'plugin::upload.file id 1, field ext: ".png/../../x" is not a file extension'],
    ['a locale that is an object of 1 MB (quoted in 60 characters)', { type: 'api::article.article', id: 1, data: { documentId: 'a', locale: { x: 'z'.repeat(MiB) } } }, `api::article.article id 1, field locale: ${JSON.stringify({ x: 'z'.repeat(60) }).slice(0, 57)}... is not a configured locale (en, fr, de)`],
    ['a type name of 1 MB (the problem cut to 500 characters)', { type: `api::${'t'.repeat(MiB)}`, id: 1, data: {} }, `${`entity api::${'t'.repeat(600)}`.slice(0, 497)}...`],
  ])('%s', async (_name, entity, problem) => {
    const archive = await craftArchive([{ name: ENTITIES, body: entityLine(entity) }, { name: 'assets/uploads/a_1.png', body: 'png' }]);
    const { error } = await refusal(archive);
    expect(error.problems).toEqual([problem]);
  });
});
