import { ConfigurationError } from '../../../lib/errors';
import { createRegistry } from '../../../lib/schema';

const type = (singular: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  kind: 'collectionType',
  info: { singularName: singular, pluralName: `${singular}s` },
  attributes,
  ...extra,
});

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigurationError) return e.code;
    throw e;
  }
  return undefined;
}

describe('createRegistry', () => {
  it('normalizes every Strapi attribute type', () => {
    const scalarTypes = ['string', 'text', 'richtext', 'blocks', 'email', 'password', 'uid', 'integer', 'biginteger', 'float', 'decimal', 'boolean', 'date', 'time', 'datetime', 'timestamp', 'json'];
    const attributes: Record<string, unknown> = Object.fromEntries(scalarTypes.map((t) => [`f_${t}`, { type: t }]));
    attributes.choice = { type: 'enumeration', enum: ['a', 'b'] };
    attributes.picture = { type: 'media', multiple: false };
    attributes.tags = { type: 'relation', relation: 'manyWay', target: 'api::tag.tag' };
    attributes.seo = { type: 'component', component: 'shared.seo', repeatable: false };
    attributes.zone = { type: 'dynamiczone', components: ['shared.seo'] };
    const registry = createRegistry({
      contentTypes: [type('thing', attributes), type('tag', { name: { type: 'string' } })],
      components: { 'shared.seo': { attributes: { title: { type: 'string' } } } },
    });
    const thing = registry.contentType('api::thing.thing');
    for (const t of scalarTypes) expect(thing.attributes[`f_${t}`]).toMatchObject({ kind: 'scalar', type: t });
    expect(thing.attributes.f_password!.private).toBe(true);
    expect(thing.attributes.tags).toMatchObject({ kind: 'relation', toMany: true, owner: true });
    expect(thing.attributes.id).toMatchObject({ system: true });
    expect(thing.attributes.locale).toBeUndefined();
    expect(registry.byRoute('things')).toBe(thing);
    expect(registry.contentType('plugin::upload.file').collectionName).toBe('files');
  });

  it('derives relation ownership and incoming relations', () => {
    const registry = createRegistry({
      contentTypes: [
        type('post', { writer: { type: 'relation', relation: 'manyToOne', target: 'api::writer.writer', inversedBy: 'posts' } }),
        type('writer', { posts: { type: 'relation', relation: 'oneToMany', target: 'api::post.post', mappedBy: 'writer' } }),
      ],
    });
    expect(registry.contentType('api::writer.writer').attributes.posts).toMatchObject({ owner: false, toMany: true });
    expect(registry.incomingRelations('api::writer.writer').map((r) => r.sourceUid)).toEqual(['api::post.post']);
  });

  it.each([
    ['an unknown attribute type', [type('a', { x: { type: 'colour' } })], {}, 'CR_UNKNOWN_ATTRIBUTE_TYPE'],
    ['a relation to an unknown target', [type('a', { x: { type: 'relation', relation: 'oneWay', target: 'api::nope.nope' } })], {}, 'CR_UNKNOWN_TARGET'],
    ['inversedBy without mappedBy', [type('a', { x: { type: 'relation', relation: 'manyToOne', target: 'api::b.b', inversedBy: 'as' } }), type('b', {})], {}, 'CR_RELATION_MISMATCH'],
    ['a morph relation without its target', [type('a', { x: { type: 'relation', relation: 'morphMany' } })], {}, 'CR_INVALID_SCHEMA'],
    ['an unknown component', [type('a', { x: { type: 'component', component: 'shared.nope' } })], {}, 'CR_UNKNOWN_COMPONENT'],
    ['an unknown dynamic zone component', [type('a', { x: { type: 'dynamiczone', components: ['shared.nope'] } })], {}, 'CR_UNKNOWN_COMPONENT'],
    ['two types with one API id', [type('a', {}), type('a', {})], {}, 'CR_DUPLICATE_API_ID'],
    ['a reserved attribute name', [type('a', { documentId: { type: 'string' } })], {}, 'CR_RESERVED_ATTRIBUTE'],
    ['a malformed definition', [{ kind: 'collectionType', attributes: {} }], {}, 'CR_INVALID_SCHEMA'],
    ['an enumeration without enum', [type('a', { x: { type: 'enumeration' } })], {}, 'CR_INVALID_SCHEMA'],
    ['a malformed component', [type('a', {})], { 'shared.x': { attributes: { y: {} } } }, 'CR_INVALID_SCHEMA'],
  ])('rejects %s', (_label, contentTypes, components, code) => {
    expect(codeOf(() => createRegistry({ contentTypes, components }))).toBe(code);
  });

  it.each([
    ['a typo of a uid', 'api::categroy.categroy', ' (did you mean "api::category.category"?)'],
    ['a uid in the wrong case', 'api::Category.Category', ' (did you mean "api::category.category"?)'],
    ['the singular name alone', 'category', ' (did you mean "api::category.category"?)'],
    ['the plural name in a uid', 'api::categories.categories', ' (did you mean "api::category.category"?)'],
    ['nothing close', 'api::zebra.zebra', ''],
  ])('CR_UNKNOWN_TARGET suggests the closest content type: %s', (_label, target, hint) => {
    const contentTypes = [
      type('article', { category: { type: 'relation', relation: 'manyToOne', target } }),
      type('category', {}),
    ];
    expect(() => createRegistry({ contentTypes })).toThrow(
      `CR_UNKNOWN_TARGET: api::article.article.category: relation to unknown type "${target}"${hint}; content types: api::article.article, api::category.category`,
    );
  });

  it('names the type and attribute in the message', () => {
    expect(() => createRegistry({ contentTypes: [type('a', { colour: { type: 'colour' } })] })).toThrow(/api::a\.a\.colour/);
  });

  it('rejects a default locale that is not configured', () => {
    expect(codeOf(() => createRegistry({ contentTypes: [], i18n: { locales: ['en'], defaultLocale: 'fr' } }))).toBe('CR_INVALID_LOCALES');
  });
});
