import { createRegistry, type RegistryInput } from '../../../lib/schema';
import { strapiProject, strapiProjectCustomFields, strapiProjectUnknownKeys } from '../../fixtures/strapi-project';
import { registryFailure } from './registry-failure';

const type = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  kind: 'collectionType',
  info: { singularName: 'thing', pluralName: 'things', displayName: 'Thing' },
  attributes: { title: { type: 'string' }, ...attributes },
  ...extra,
});

let warn: jest.SpyInstance;
beforeEach(() => {
  warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
});
afterEach(() => warn.mockRestore());

/** The messages of the `CR_UNKNOWN_SCHEMA_KEYS` warnings emitted so far. */
function unknownKeyWarnings(): string[] {
  return warn.mock.calls.filter((c) => (c[1] as { code?: string } | undefined)?.code === 'CR_UNKNOWN_SCHEMA_KEYS').map((c) => String(c[0]));
}

const failure = registryFailure;

describe('a Strapi project\'s schema files load as they are', () => {
  it('loads every file, with one warning listing the keys Strapi does not use', () => {
    const { contentTypes, components } = strapiProject();
    const registry = createRegistry({ contentTypes, components, customFields: strapiProjectCustomFields, i18n: { locales: ['en', 'fr'] } });
    const page = registry.contentType('api::page.page');
    expect(page).toMatchObject({ localized: true, draftAndPublish: true });
    expect(page.attributeNames).toEqual(['title', 'slug', 'accent', 'rating', 'audience', 'membersNote', 'sections', 'seo']);
    expect(page.attributes.slug).toMatchObject({ kind: 'scalar', type: 'uid', localized: false, targetField: 'title' });
    expect(registry.contentType('api::global.global').kind).toBe('singleType');
    expect(registry.component('dynamic-zone.cta').attributes.CTAs).toMatchObject({ kind: 'component', component: 'shared.button', repeatable: true });
    const warnings = unknownKeyWarnings();
    expect(warnings).toHaveLength(1);
    for (const key of strapiProjectUnknownKeys) expect(warnings[0]).toContain(key);
    expect(warnings[0]).toMatch(/^schema files: 4 keys that Strapi does not use are ignored, as Strapi ignores them: /);
  });

  it('warns once per process for the same keys, again for others', () => {
    const def = type({ body: { type: 'text', hint: 'Body' } });
    for (let i = 0; i < 3; i += 1) createRegistry({ contentTypes: [def] });
    expect(unknownKeyWarnings()).toEqual([expect.stringContaining('content type thing: schema.attributes.body.hint')]);
    createRegistry({ contentTypes: [type({ body: { type: 'text', label: 'Body' } })] });
    expect(unknownKeyWarnings()).toHaveLength(2);
    expect(unknownKeyWarnings()[1]).toContain('content type thing: schema.attributes.body.label');
  });

  it('warns about nothing when every key is one Strapi uses, on this type or another (min on a string is ignored by both)', () => {
    createRegistry({
      contentTypes: [type({ a: { type: 'string', min: 2, enum: ['x'], repeatable: true, private: false }, b: { type: 'media', default: null, unique: true } })],
    });
    expect(unknownKeyWarnings()).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['displayName on an attribute', type({ body: { type: 'text', displayName: 'Body' } }), 'schema.attributes.body.displayName'],
    ['a key far from every key its type uses (editable / writable)', type({ body: { type: 'text', editable: false } }), 'schema.attributes.body.editable'],
    ['an unknown key in info', type({}, { info: { singularName: 'thing', pluralName: 'things', label: 'x' } }), 'schema.info.label'],
    ['an unknown model option', type({}, { options: { draftAndPublish: true, reviewWorkflows: true } }), 'schema.options.reviewWorkflows'],
    ['an unknown top-level key', type({}, { version: '1.0.0' }), 'schema.version'],
  ])('accepts %s, with the warning', (_label, def, key) => {
    expect(() => createRegistry({ contentTypes: [def] })).not.toThrow();
    expect(unknownKeyWarnings().join('\n')).toContain(`content type thing: ${key}`);
  });

  it('accepts the shapes Strapi writes or keeps without warning: options of attributes, pluginOptions, conditions, config, info.name', () => {
    createRegistry({
      contentTypes: [type(
        {
          slug: { type: 'uid', targetField: 'title', options: { separator: '_', anything: 1 }, pluginOptions: { i18n: { localized: false }, x: { y: 1 } } },
          note: { type: 'text', conditions: { visible: { '==': [{ var: 'title' }, 'x'] } } },
        },
        { config: {}, connection: 'default', info: { singularName: 'thing', pluralName: 'things', name: 'Thing', icon: 'file' }, options: { draftAndPublish: false, comment: '' } },
      )],
      components: { 'shared.x': { collectionName: 'components_shared_xs', info: { displayName: 'X', icon: 'a', name: 'x' }, options: { any: 1 }, config: {}, attributes: { a: { type: 'string' } } } },
    });
    expect(unknownKeyWarnings()).toEqual([]);
  });

  it('defaults kind to collectionType, as Strapi does', () => {
    const registry = createRegistry({ contentTypes: [{ info: { singularName: 'thing', pluralName: 'things' }, attributes: {} }] });
    expect(registry.contentType('api::thing.thing').kind).toBe('collectionType');
    expect(registry.byRoute('things')?.uid).toBe('api::thing.thing');
  });
});

describe('near misses of the keys Strapi uses are refused (Strapi would ignore them silently)', () => {
  it.each<[string, RegistryInput, string]>([
    ['requried', { contentTypes: [type({ body: { type: 'text', requried: true } })] }, 'content type thing: schema.attributes.body.requried: unknown key (did you mean "required"?)'],
    ['maxlength in a component', { contentTypes: [type({})], components: { 'shared.seo': { attributes: { t: { type: 'string', maxlength: 60 } } } } }, 'component shared.seo: schema.attributes.t.maxlength: unknown key (did you mean "maxLength"?)'],
    ['targetfeild on a uid', { contentTypes: [type({ slug: { type: 'uid', targetfeild: 'title' } })] }, 'schema.attributes.slug.targetfeild: unknown key (did you mean "targetField"?)'],
    ['repeteable on a component', { contentTypes: [type({ c: { type: 'component', component: 'shared.x', repeteable: true } })], components: { 'shared.x': { attributes: {} } } }, 'schema.attributes.c.repeteable: unknown key (did you mean "repeatable"?)'],
    ['allowTypes on a media', { contentTypes: [type({ m: { type: 'media', allowTypes: ['images'] } })] }, 'schema.attributes.m.allowTypes: unknown key (did you mean "allowedTypes"?)'],
    ['mappedby on a relation', { contentTypes: [type({ r: { type: 'relation', relation: 'oneToMany', target: 'api::thing.thing', mappedby: 'x' } })] }, 'schema.attributes.r.mappedby: unknown key (did you mean "mappedBy"?)'],
    ['regx on a custom field, against the keys of the type it stores', { contentTypes: [type({ c: { type: 'customField', customField: 'global::c', regx: '^a' } })], customFields: { 'global::c': { type: 'string' } } }, 'schema.attributes.c.regx: unknown key (did you mean "regex"?)'],
    ['displayname in info', { contentTypes: [type({}, { info: { singularName: 'thing', pluralName: 'things', displayname: 'T' } })] }, 'schema.info.displayname: unknown key (did you mean "displayName"?)'],
    ['option at the top level', { contentTypes: [type({}, { option: { draftAndPublish: true } })] }, 'schema.option: unknown key (did you mean "options"?)'],
    ['draftAndPublished in options', { contentTypes: [type({}, { options: { draftAndPublished: true } })] }, 'schema.options.draftAndPublished: unknown key (did you mean "draftAndPublish"?)'],
    ['atributes in a component', { contentTypes: [], components: { 'shared.x': { attributes: {}, atributes: {} } } }, 'component shared.x: schema.atributes: unknown key (did you mean "attributes"?)'],
  ])('%s', (_label, input, message) => {
    const error = failure(input);
    expect(error.code).toBe('CR_INVALID_SCHEMA');
    expect(error.message).toContain(message);
    expect(error.message).toContain('Strapi would ignore it silently');
  });
});
