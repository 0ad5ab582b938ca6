import { createRegistry, type Registry } from '../../../lib/schema';
import { strapiProject, strapiProjectCustomFields } from '../../fixtures/strapi-project';

/**
 * A content type as `strapi.contentTypes[uid]` holds it after Strapi's `createContentType` (strapi/strapi
 * packages/core/core/src/domain/content-type/index.ts) and the i18n plugin: the file in `__schema__`, the general
 * info, Strapi's own attributes added, custom fields converted to their stored type.
 */
function loadedContentType(uid: string, file: Record<string, unknown>, withSchema: boolean): Record<string, unknown> {
  const attributes = file.attributes as Record<string, Record<string, unknown>>;
  const converted = Object.fromEntries(Object.entries(attributes).map(([name, a]) => [name, a.type === 'customField' ? { ...a, type: name === 'rating' ? 'integer' : 'string' } : a]));
  const info = file.info as { singularName: string };
  const admin = { type: 'relation', relation: 'oneToOne', target: 'admin::user', configurable: false, writable: false, visible: false, useJoinTable: false, private: true };
  return {
    ...file,
    uid,
    modelType: 'contentType',
    kind: file.kind ?? 'collectionType',
    modelName: info.singularName,
    globalId: 'Page',
    actions: {},
    lifecycles: {},
    ...(withSchema ? { __schema__: file } : {}),
    attributes: {
      ...converted,
      createdAt: { type: 'datetime' },
      updatedAt: { type: 'datetime' },
      publishedAt: { type: 'datetime', configurable: false, writable: true, visible: false },
      createdBy: admin,
      updatedBy: admin,
      locale: { writable: true, private: false, configurable: false, visible: false, type: 'string' },
      localizations: { type: 'relation', relation: 'oneToMany', target: uid, writable: false, private: false, configurable: false, visible: false, unstable_virtual: true },
    },
  };
}

/** What the registry says of a type, for comparing two registries. */
function shape(registry: Registry, uid: string): unknown {
  const ct = registry.contentType(uid);
  const attributes = Object.fromEntries(Object.entries(ct.attributes).map(([name, a]) => [name, { ...a, raw: undefined }]));
  return { ...ct, attributes };
}

let warn: jest.SpyInstance;
beforeAll(() => {
  warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
});
afterAll(() => warn.mockRestore());

describe('loaded models (strapi.contentTypes[uid], strapi.components[uid]) load as their files', () => {
  const { contentTypes, components } = strapiProject();
  let files: Registry;
  beforeAll(() => {
    files = createRegistry({ contentTypes, components, customFields: strapiProjectCustomFields });
  });
  const page = contentTypes.find((c) => c.info.singularName === 'page') as unknown as Record<string, unknown>;
  const others = contentTypes.filter((c) => c.info.singularName !== 'page');

  it.each([
    ['with __schema__', true],
    ['without __schema__ (Strapi\'s own attributes left out)', false],
  ])('a content type %s', (_label, withSchema) => {
    const loaded = loadedContentType('api::page.page', page, withSchema);
    const registry = createRegistry({ contentTypes: [...others, loaded as never], components, customFields: strapiProjectCustomFields });
    expect(shape(registry, 'api::page.page')).toEqual(shape(files, 'api::page.page'));
  });

  it('with __schema__, what plugins added to the loaded model is not read (review workflows\' strapi_stage)', () => {
    const loaded = loadedContentType('api::page.page', page, true);
    const stage = { type: 'relation', relation: 'oneToOne', target: 'plugin::review-workflows.workflow-stage', configurable: false, writable: true, visible: false, useJoinTable: true, private: false };
    const withStage = { ...loaded, attributes: { ...(loaded.attributes as object), strapi_stage: stage } };
    const registry = createRegistry({ contentTypes: [...others, withStage as never], components, customFields: strapiProjectCustomFields });
    expect(shape(registry, 'api::page.page')).toEqual(shape(files, 'api::page.page'));
  });

  it('a component model, keyed by its uid', () => {
    const button = components['shared.button'] as unknown as Record<string, unknown>;
    const loaded = { ...button, uid: 'shared.button', category: 'shared', modelType: 'component', modelName: 'button', globalId: 'ComponentSharedButton', __schema__: button };
    const registry = createRegistry({ contentTypes, components: { ...components, 'shared.button': loaded as never }, customFields: strapiProjectCustomFields });
    expect(registry.component('shared.button')).toEqual(files.component('shared.button'));
  });
});
