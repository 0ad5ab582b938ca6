import { createContentRouter, memoryEngine, type ContentRouterOptions } from '../../../lib';
import { ConfigurationError } from '../../../lib/errors';
import { didYouMean, editDistance } from '../../../lib/errors/did-you-mean';

const article = (attributes: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  kind: 'collectionType',
  info: { singularName: 'article', pluralName: 'articles' },
  attributes: { title: { type: 'string' }, ...attributes },
  ...extra,
});

function failure(options: Record<string, unknown>): ConfigurationError {
  try {
    createContentRouter({ contentTypes: [article()], engine: memoryEngine({ ephemeral: true }), ...options } as unknown as ContentRouterOptions);
  } catch (e) {
    if (e instanceof ConfigurationError) return e;
    throw e;
  }
  throw new Error('createContentRouter accepted the options');
}

describe('configuration mistakes are refused at start-up, naming the key, its path and a did-you-mean', () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ['an unknown top-level option', { restt: {} }, 'CR_INVALID_OPTIONS', 'options.restt: unknown option (did you mean "rest"?); allowed: contentTypes, components, customFields, engine, rest,'],
    ['a top-level option in the wrong case', { ReadyWaitMS: 1 }, 'CR_INVALID_OPTIONS', 'options.ReadyWaitMS: unknown option (did you mean "readyWaitMS"?)'],
    ['an unknown option far from any', { colour: 'red' }, 'CR_INVALID_OPTIONS', 'options.colour: unknown option; allowed:'],
    ['i18n.default', { i18n: { locales: ['en'], default: 'en' } }, 'CR_INVALID_OPTIONS', 'options.i18n.default: unknown option (did you mean "defaultLocale"?); allowed: locales, defaultLocale'],
    ['upload.dir', { upload: { dir: './uploads' } }, 'CR_INVALID_OPTIONS', 'options.upload.dir: unknown option (did you mean "directory"?); allowed: provider, directory, sizeLimit, breakpoints, maxFiles, maxPixels'],
    ['upload.maxFile', { upload: { maxFile: 3 } }, 'CR_INVALID_OPTIONS', 'options.upload.maxFile: unknown option (did you mean "maxFiles"?)'],
    ['an unknown rest key', { rest: { maxLimt: 10 } }, 'CR_INVALID_OPTIONS', 'options.rest.maxLimt: unknown option (did you mean "maxLimit"?)'],
    ['a rest key, named', { rest: { defaultlimit: 10 } }, 'CR_INVALID_OPTIONS', 'options.rest.defaultlimit: unknown option (did you mean "defaultLimit"?); allowed: defaultLimit, maxLimit, maxDepth'],
    ['an unknown auth key', { auth: { apitoken: [] } }, 'CR_INVALID_OPTIONS', 'auth.apitoken: unknown key (did you mean "apiTokens"?)'],
    ['an auth enum', { auth: { apiTokens: [{ name: 'a', type: 'readonly', accessKey: 'k' }] } }, 'CR_INVALID_OPTIONS', 'auth.apiTokens[0].type must be one of "read-only", "full-access", "custom"'],
    ['a hook under a misspelled uid', { lifecycles: { 'api::articel.articel': { beforeCreate: () => undefined } } }, 'CR_INVALID_OPTIONS', 'options.lifecycles.api::articel.articel: unknown content type (did you mean "api::article.article"?)'],
    ['a hook under an unknown uid', { lifecycles: { 'api::page.page': { beforeCreate: () => undefined } } }, 'CR_INVALID_OPTIONS', 'options.lifecycles.api::page.page: unknown content type; allowed: api::article.article, plugin::upload.file'],
    ['a misspelled hook name', { lifecycles: { 'api::article.article': { beforeCreated: () => undefined } } }, 'CR_INVALID_OPTIONS', 'options.lifecycles.api::article.article.beforeCreated: unknown hook (did you mean "beforeCreate"?)'],
    ['a hook that is not a function', { lifecycles: { 'api::article.article': { afterCreate: 'log' } } }, 'CR_INVALID_OPTIONS', 'options.lifecycles.api::article.article.afterCreate must be a function'],
    ['a customFields entry with a misspelled key', { customFields: { 'plugin::color-picker.color': { typ: 'string' } } }, 'CR_INVALID_OPTIONS', "options.customFields.plugin::color-picker.color.typ: unknown option (did you mean \"type\"?)"],
    ['a customFields entry without its type', { customFields: { 'plugin::color-picker.color': { name: 'color' } } }, 'CR_INVALID_OPTIONS', "options.customFields.plugin::color-picker.color must have required property 'type'"],
    ['a custom field storing a type Strapi does not allow', { customFields: { 'global::x': { type: 'media' } } }, 'CR_INVALID_OPTIONS', 'options.customFields.global::x.type must be one of "biginteger", "boolean", "date", "datetime", "decimal", "email", "enumeration", "float", "integer", "json", "password", "richtext", "string", "text", "time", "uid"'],
    ['a custom field uid that is not one', { customFields: { 'color-picker.color': { type: 'string' } } }, 'CR_INVALID_OPTIONS', 'options.customFields["color-picker.color"]: a custom field uid is "plugin::<plugin>.<name>" or "global::<name>"'],
    ['a documentId that is not a function', { documentId: 'uuid' }, 'CR_INVALID_OPTIONS', 'options.documentId must be a function'],
    ['requried in an attribute', { contentTypes: [article({ body: { type: 'text', requried: true } })] }, 'CR_INVALID_SCHEMA', 'content type article: schema.attributes.body.requried: unknown key (did you mean "required"?)'],
    ['an unknown info key', { contentTypes: [article({}, { info: { singularName: 'article', pluralName: 'articles', displayname: 'A' } })] }, 'CR_INVALID_SCHEMA', 'schema.info.displayname: unknown key (did you mean "displayName"?)'],
    ['an unknown schema key', { contentTypes: [article({}, { option: { draftAndPublish: true } })] }, 'CR_INVALID_SCHEMA', 'schema.option: unknown key (did you mean "options"?)'],
    ['an unknown model option', { contentTypes: [article({}, { options: { draftAndPublished: true } })] }, 'CR_INVALID_SCHEMA', 'schema.options.draftAndPublished: unknown key (did you mean "draftAndPublish"?)'],
    ['an unknown kind, listing the kinds', { contentTypes: [article({}, { kind: 'collection' })] }, 'CR_INVALID_SCHEMA', 'schema.kind must be one of "collectionType", "singleType"'],
    ['a uid targetField naming no attribute', { contentTypes: [article({ slug: { type: 'uid', targetField: 'titel' } })] }, 'CR_INVALID_SCHEMA', 'api::article.article.slug.targetField: "titel" is not an attribute of api::article.article (did you mean "title"?)'],
    ['pluralName equal to singularName', { contentTypes: [article({}, { info: { singularName: 'news', pluralName: 'news' } })] }, 'CR_INVALID_SCHEMA', 'api::news.news.info.pluralName: "news" is also the singularName'],
    ['an unknown key in a component attribute', { contentTypes: [article()], components: { 'shared.seo': { attributes: { metaTitle: { type: 'string', maxlength: 60 } } } } }, 'CR_INVALID_SCHEMA', 'component shared.seo: schema.attributes.metaTitle.maxlength: unknown key (did you mean "maxLength"?)'],
    ['a component uid targetField naming no attribute', { contentTypes: [article()], components: { 'shared.seo': { attributes: { slug: { type: 'uid', targetField: 'name' } } } } }, 'CR_INVALID_SCHEMA', 'shared.seo.slug.targetField: "name" is not an attribute of shared.seo'],
  ])('%s', (_label, options, code, message) => {
    const error = failure(options);
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it('accepts every key real Strapi schema.json files carry (attributes, options, pluginOptions, loaded-model keys)', () => {
    const contentType = article(
      {
        slug: { type: 'uid', targetField: 'title', required: true, configurable: false, pluginOptions: { i18n: { localized: false }, anything: { goes: 1 } } },
        views: { type: 'biginteger', column: { unsigned: true }, private: true, writable: false, visible: false, default: '0', min: '0' },
        note: { type: 'text', minLength: 2, maxLength: 9, conditions: { visible: { '==': [{ var: 'title' }, 'x'] } }, searchable: false },
        color: { type: 'string', customField: 'plugin::color-picker.color', options: { format: 'hex' }, regex: '^#' },
        related: { type: 'relation', relation: 'manyWay', target: 'api::article.article', useJoinTable: true },
      },
      {
        collectionName: 'articles',
        info: { singularName: 'article', pluralName: 'articles', displayName: 'Article', description: 'd', icon: 'file' },
        options: { draftAndPublish: true, populateCreatorFields: false, comment: '' },
        pluginOptions: { i18n: { localized: true }, 'content-manager': { visible: true }, unknownPlugin: { x: 1 } },
        uid: 'api::article.article', modelType: 'contentType', modelName: 'article', globalId: 'Article', apiName: 'article', __schema__: {}, __filename__: 'schema.json',
      },
    );
    const component = { collectionName: 'components_shared_seos', info: { displayName: 'Seo', icon: 'search', description: '' }, options: {}, attributes: { metaTitle: { type: 'string', required: true } } };
    expect(() => createContentRouter({ contentTypes: [contentType], components: { 'shared.seo': component }, engine: memoryEngine({ ephemeral: true }), i18n: { locales: ['en'] } })).not.toThrow();
  });
});

describe('didYouMean', () => {
  it.each<[string, string[], string | undefined]>([
    ['restt', ['rest', 'auth'], 'rest'],
    ['requried', ['required', 'private'], 'required'],
    ['READYWAITMS', ['readyWaitMS'], 'readyWaitMS'],
    ['dir', ['directory', 'provider'], 'directory'],
    ['titel', ['title'], 'title'],
    ['x', ['y'], 'y'],
    ['colour', ['rest', 'auth', 'upload'], undefined],
  ])('%s among %j -> %s', (given, known, expected) => {
    expect(didYouMean(given, known)).toBe(expected);
  });
  it.each<[string, string, number]>([['', 'abc', 3], ['kitten', 'sitting', 3], ['same', 'same', 0], ['ab', 'ba', 1], ['ca', 'abc', 3]])('editDistance(%s, %s) = %d', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });
});
