import fs from 'node:fs';
import { localProvider, type StorageProvider } from '../../lib';
import { importStrapiExport } from '../../lib/transfer/import-strapi-export';
import { TransferError } from '../../lib/transfer/transfer-error';
import { blogTarget, editedFixture, FIXTURE, rowCounts, type BlogTarget } from './transfer-helpers';

/** The store is as it was before the import: empty everywhere, no file left in the uploads folder. */
async function expectUntouched(target: BlogTarget): Promise<void> {
  const counts = await rowCounts(target);
  expect(counts).toEqual(Object.fromEntries(Object.keys(counts).map((k) => [k, 0])));
  expect(fs.readdirSync(target.uploads)).toEqual([]);
}

async function importError(target: BlogTarget, file: string, provider?: StorageProvider): Promise<TransferError> {
  const error: unknown = await importStrapiExport(target.router, file, { uploads: provider ? { provider } : { directory: target.uploads } }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransferError);
  return error as TransferError;
}

describe('an export that does not fit the model: nothing is written, every problem names the entity and field', () => {
  it('an unknown content type', async () => {
    const target = await blogTarget();
    const file = await editedFixture((_, v) => v, [{ stage: 'entities', value: { type: 'api::product.product', id: 1, data: { documentId: 'p1' } } }]);
    const error = await importError(target, file);
    expect(error.problems).toEqual([expect.stringMatching(/^entity api::product.product id 1: the type is not in the model \(its content types: api::about.about, api::article.article/)]);
    expect(error.message).toMatch(/does not fit the model; nothing was imported/);
    await expectUntouched(target);
  });

  it('an attribute the model does not have, and a value of the wrong type', async () => {
    const target = await blogTarget();
    const file = await editedFixture((stage, v) => {
      if (stage !== 'entities') return v;
      if (v.type === 'api::article.article' && v.id === 3) return { ...v, data: { ...(v.data as object), subtitle: 'x' } };
      if (v.type === 'api::author.author' && v.id === 2) return { ...v, data: { ...(v.data as object), name: 42 } };
      return v;
    });
    const error = await importError(target, file);
    expect(error.problems).toEqual(['api::article.article id 3, field subtitle: is not an attribute of the model', 'api::author.author id 2, field name: 42 is not a string (string)']);
    await expectUntouched(target);
  });

  it('a component field and a dynamic zone item that do not fit', async () => {
    const target = await blogTarget();
    const file = await editedFixture((stage, v) => {
      if (stage !== 'entities' || v.type !== 'api::article.article') return v;
      const data = v.data as Record<string, unknown>;
      if (v.id === 4) return { ...v, data: { ...data, seo: { ...(data.seo as object), socials: [{ id: 900, network: 'myspace', url: null }] } } };
      if (v.id === 5) return { ...v, data: { ...data, blocks: [...(data.blocks as object[]), { id: 901, __component: 'shared.hero' }] } };
      return v;
    });
    const error = await importError(target, file);
    expect(error.problems).toEqual([
      'api::article.article id 4, field seo.socials[0].network: "myspace" is not one of twitter, facebook, linkedin (enumeration)',
      expect.stringMatching(/^api::article.article id 5, field blocks\[\d\].__component: "shared.hero" is not one of the zone's components \(shared.rich-text, shared.quote, shared.media, shared.slider\)$/),
    ]);
    await expectUntouched(target);
  });

  it('a link to the wrong target, and a link to a relation the model does not store', async () => {
    const target = await blogTarget();
    const file = await editedFixture((stage, v) => {
      const left = v.left as Record<string, unknown> | undefined;
      if (stage === 'links' && left?.type === 'api::article.article' && left.field === 'author' && left.ref === 1) return { ...v, right: { ...(v.right as object), type: 'api::category.category' } };
      return v;
    }, [{ stage: 'links', value: { kind: 'relation.basic', relation: 'oneToMany', left: { type: 'api::author.author', field: 'articles', ref: 1 }, right: { type: 'api::article.article', ref: 1 } } }]);
    const error = await importError(target, file);
    expect(error.problems).toEqual([
      'link api::article.article id 1 field author: wrong target api::category.category, the model\'s author targets api::author.author',
      'link api::author.author id 1 field articles: the model has no relation articles stored on api::author.author (it is the mappedBy side)',
    ]);
    await expectUntouched(target);
  });

  it('a locale that is not configured (Strapi 5 stores one silently: the fixture has articles in de)', async () => {
    const model = await blogTarget();
    const { loadBlogModel } = await import('../../examples/blog/model');
    const { contentTypes, components } = loadBlogModel();
    const error: unknown = await importStrapiExport({ engine: model.engine, contentTypes, components, i18n: { locales: ['en', 'fr'] } }, FIXTURE, { uploads: { directory: model.uploads } }).catch((e: unknown) => e);
    expect((error as TransferError).problems).toEqual([
      'api::article.article id 173, field locale: "de" is not a configured locale (en, fr)',
      'api::article.article id 174, field locale: "de" is not a configured locale (en, fr)',
    ]);
    expect((error as Error).message).toMatch(/\(configure those locales, or leave their versions out: unconfiguredLocales: 'skip', --skip-unconfigured-locales\)$/);
    await expectUntouched(model);
    // Asked to: those versions are left out, with their links, and counted.
    const result = await importStrapiExport({ engine: model.engine, contentTypes, components, i18n: { locales: ['en', 'fr'] } }, FIXTURE, { uploads: { directory: model.uploads }, unconfiguredLocales: 'skip' });
    expect(result.rows['api::article.article']).toBe(147);
    expect(result.skipped['versions in unconfigured locales (de)']).toBe(2);
    expect(await model.engine.count('articles', { locale: 'de' })).toBe(0);
  });
});

describe('a failure while writing: everything written is taken back', () => {
  it('a storage provider that fails on the 5th file: rows and the 4 files stored are removed', async () => {
    const target = await blogTarget();
    const local = localProvider({ directory: target.uploads });
    let uploads = 0;
    let rowsWhenItFailed = 0;
    const failing: StorageProvider = {
      name: 'local',
      async upload(file) {
        if (++uploads === 5) {
          rowsWhenItFailed = await target.engine.count('articles', {});
          file.stream.resume();
          throw new Error('disk full');
        }
        return local.upload(file);
      },
      delete: (file) => local.delete(file),
    };
    const error: unknown = await importStrapiExport(target.router, FIXTURE, { uploads: { provider: failing } }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('disk full');
    expect(rowsWhenItFailed).toBe(149);
    await expectUntouched(target);
  });

  it('a unique attribute clash the database finds: the error names the type and attribute', async () => {
    const target = await blogTarget();
    const file = await editedFixture((stage, v) => {
      if (stage === 'entities' && v.type === 'api::author.author' && v.id === 2) return { ...v, data: { ...(v.data as object), email: 'ann@example.com' } };
      return v;
    });
    const error = await importError(target, file);
    expect(error.message).toBe('api::author.author: two rows share a value of the unique attribute email in one locale and status; nothing was imported');
    await expectUntouched(target);
  });
});
