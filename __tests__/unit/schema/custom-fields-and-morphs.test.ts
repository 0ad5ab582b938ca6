import { createRegistry } from '../../../lib/schema';
import { strapiProject, strapiProjectCustomFields } from '../../fixtures/strapi-project';
import { registryFailure } from './registry-failure';

const type = (singular: string, attributes: Record<string, unknown>) => ({
  kind: 'collectionType',
  info: { singularName: singular, pluralName: `${singular}s` },
  attributes,
});

const failure = registryFailure;

let warn: jest.SpyInstance;
beforeEach(() => {
  warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
});
afterEach(() => warn.mockRestore());

describe('custom fields store what their registration says', () => {
  it('a registered custom field is an attribute of the type it stores, its other keys kept (as Strapi converts it)', () => {
    const { contentTypes, components } = strapiProject();
    const page = createRegistry({ contentTypes, components, customFields: strapiProjectCustomFields }).contentType('api::page.page');
    expect(page.attributes.accent).toMatchObject({ kind: 'scalar', type: 'string', regex: '^#([0-9a-fA-F]{6})$', localized: false });
    expect(page.attributes.accent!.raw).toMatchObject({ type: 'string', customField: 'plugin::color-picker.color', options: { format: 'hex', showPreview: true } });
    expect(page.attributes.rating).toMatchObject({ kind: 'scalar', type: 'integer', min: 1, max: 5 });
  });

  it('an enumeration custom field takes its enum from the attribute', () => {
    const registry = createRegistry({
      contentTypes: [type('thing', { size: { type: 'customField', customField: 'plugin::sizes.size', enum: ['s', 'm'] } })],
      customFields: { 'plugin::sizes.size': { type: 'enumeration' } },
    });
    expect(registry.contentType('api::thing.thing').attributes.size).toMatchObject({ kind: 'scalar', type: 'enumeration', enum: ['s', 'm'] });
  });

  it('an attribute that already names its stored type next to customField (a loaded model) needs no registration', () => {
    const registry = createRegistry({ contentTypes: [type('thing', { c: { type: 'string', customField: 'plugin::color-picker.color' } })] });
    expect(registry.contentType('api::thing.thing').attributes.c).toMatchObject({ kind: 'scalar', type: 'string' });
  });

  it('an unregistered custom field is refused, with how to register it', () => {
    const error = failure({ contentTypes: [type('thing', { c: { type: 'customField', customField: 'plugin::color-picker.color' } })], customFields: { 'global::rating': { type: 'integer' } } });
    expect(error.code).toBe('CR_UNKNOWN_CUSTOM_FIELD');
    expect(error.message).toContain('api::thing.thing.c: the custom field "plugin::color-picker.color" is not registered');
    expect(error.message).toContain("customFields: { 'plugin::color-picker.color': { type: 'string' } }");
    expect(error.message).toContain('strapi.customFields.register');
    expect(error.message).toContain('registered: global::rating');
  });

  it('a project whose custom fields are not registered is refused at the first one', () => {
    const { contentTypes, components } = strapiProject();
    expect(failure({ contentTypes, components }).message).toContain('the custom field "plugin::color-picker.color" is not registered');
  });

  it('a custom field attribute without customField is refused', () => {
    const error = failure({ contentTypes: [type('thing', { c: { type: 'customField' } })] });
    expect(error.code).toBe('CR_INVALID_SCHEMA');
    expect(error.message).toContain('api::thing.thing.c: a custom field attribute needs "customField"');
  });
});

describe('morph relations load, apart from the served attributes', () => {
  it('keeps them in morphRelations, out of attributes, and finds them by attributes object', () => {
    const { contentTypes, components } = strapiProject();
    const registry = createRegistry({ contentTypes, components, customFields: strapiProjectCustomFields });
    const kitchen = registry.contentType('api::kitchen.kitchen');
    expect(kitchen.morphRelations).toEqual({
      anything: { name: 'anything', kind: 'morph', relation: 'morphToOne', target: undefined, morphBy: undefined, raw: { type: 'relation', relation: 'morphToOne' } },
      everything: { name: 'everything', kind: 'morph', relation: 'morphToMany', target: undefined, morphBy: undefined, raw: { type: 'relation', relation: 'morphToMany' } },
    });
    expect(kitchen.attributeNames).toEqual(['name', 'color', 'page', 'pages', 'buttons']);
    expect(kitchen.attributes.anything).toBeUndefined();
    const page = registry.contentType('api::page.page');
    expect(page.morphRelations.kitchens).toMatchObject({ relation: 'morphMany', target: 'api::kitchen.kitchen', morphBy: 'everything' });
    expect(registry.morphRelation(kitchen.attributes, 'everything')?.relation).toBe('morphToMany');
    expect(registry.morphRelation(page.attributes, 'kitchens')?.relation).toBe('morphMany');
    expect(registry.morphRelation(page.attributes, 'everything')).toBeUndefined();
    expect(registry.morphRelation({ ...kitchen.attributes }, 'everything')).toBeUndefined();
    expect(registry.incomingRelations('api::kitchen.kitchen')).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['a morphMany without target', { m: { type: 'relation', relation: 'morphMany' } }, 'CR_INVALID_SCHEMA', 'api::a.a.m: a morphMany relation needs a "target"'],
    ['a morphOne to an unknown type', { m: { type: 'relation', relation: 'morphOne', target: 'api::bb.bb' } }, 'CR_UNKNOWN_TARGET', 'api::a.a.m: relation to unknown type "api::bb.bb" (did you mean "api::b.b"?)'],
    ['a morphBy naming no morph owner', { m: { type: 'relation', relation: 'morphMany', target: 'api::b.b', morphBy: 'name' } }, 'CR_RELATION_MISMATCH', 'api::a.a.m: morphBy "name" is not a morphToOne or morphToMany attribute of api::b.b'],
    ['an unknown morph kind', { m: { type: 'relation', relation: 'morphToSome' } }, 'CR_INVALID_SCHEMA', 'api::a.a.m: unknown relation kind "morphToSome"'],
  ])('refuses %s', (_label, attributes, code, message) => {
    const error = failure({ contentTypes: [type('a', attributes), type('b', { name: { type: 'string' }, owner: { type: 'relation', relation: 'morphToOne' } })] });
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it('accepts a morphOne whose morphBy names the target\'s morphToOne', () => {
    const registry = createRegistry({
      contentTypes: [type('a', { m: { type: 'relation', relation: 'morphOne', target: 'api::b.b', morphBy: 'owner' } }), type('b', { owner: { type: 'relation', relation: 'morphToOne' } })],
    });
    expect(registry.contentType('api::a.a').morphRelations.m).toMatchObject({ relation: 'morphOne', morphBy: 'owner' });
  });
});
