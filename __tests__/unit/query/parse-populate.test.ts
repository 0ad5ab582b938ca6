import type { PopulateMap } from '../../../lib/query';
import { invalidKey, parse, parseError } from './parse-helper';

/** The populate tree without attribute objects: key -> { fields?, populate?, on?, ... }. */
function shape(map: PopulateMap): unknown {
  return Object.fromEntries(
    Object.entries(map).map(([key, node]) => {
      const out: Record<string, unknown> = {};
      if (node.fields !== null) out.fields = node.fields;
      if (node.sort.length > 0) out.sort = node.sort.map((s) => `${s.path.join('.')}:${s.order}`);
      if (node.filters) out.filters = true;
      if (node.count !== undefined) out.count = node.count;
      if (Object.keys(node.populate).length > 0) out.populate = shape(node.populate);
      if (node.on) out.on = shape(node.on);
      return [key, out];
    }),
  );
}

const populate = (raw: string, opts = {}): unknown => shape(parse(raw, opts).populate);
const STAR_ARTICLE = { cover: {}, gallery: {}, author: {}, categories: {}, seo: {}, blocks: {}, localizations: {} };

describe('parsePopulate: forms', () => {
  it.each([
    ['', {}],
    ['populate=cover', { cover: {} }],
    ['populate=cover,categories', { cover: {}, categories: {} }],
    ['populate[0]=cover&populate[1]=categories&populate[2]=gallery', { cover: {}, categories: {}, gallery: {} }],
    ['populate[categories]=true', { categories: {} }],
    ['populate[cover]=false&populate[categories]=true', { categories: {} }],
    ['populate[0]=cover&populate[categories]=true', { cover: {}, categories: {} }],
    ['populate=*', STAR_ARTICLE],
    ['populate[0]=seo', { seo: {} }],
    ['populate[0]=seo&populate[1]=seo.socials', { seo: { populate: { socials: {} } } }],
    ['populate[0]=seo.socials&populate[1]=seo.shareImage', { seo: { populate: { socials: {}, shareImage: {} } } }],
    ['populate[seo][populate][0]=socials&populate[seo][populate][1]=shareImage', { seo: { populate: { socials: {}, shareImage: {} } } }],
    ['populate[seo][populate]=*', { seo: { populate: { shareImage: {}, socials: {} } } }],
    ['populate[seo][fields][0]=metaTitle', { seo: { fields: ['metaTitle'] } }],
    ['populate[seo][populate][shareImage][fields][0]=url&populate[seo][populate][shareImage][fields][1]=width', { seo: { populate: { shareImage: { fields: ['url', 'width'] } } } }],
    ['populate[categories][fields][0]=name', { categories: { fields: ['name'] } }],
    ['populate[categories][filters][name][$eq]=Science&populate[categories][fields][0]=slug', { categories: { fields: ['slug'], filters: true } }],
    ['populate[categories][sort][0]=name:desc', { categories: { sort: ['name:desc'] } }],
    ['populate[categories][count]=true', { categories: { count: true } }],
    ['populate[author][populate][0]=avatar', { author: { populate: { avatar: {} } } }],
    ['populate[gallery][fields][0]=name&populate[gallery][fields][1]=width', { gallery: { fields: ['name', 'width'] } }],
    ['populate[localizations][fields][0]=title&populate[localizations][fields][1]=locale', { localizations: { fields: ['title', 'locale'] } }],
    ['populate[blocks][on][shared.quote]=true', { blocks: { on: { 'shared.quote': {} } } }],
    [
      'populate[blocks][on][shared.media][populate]=*&populate[blocks][on][shared.quote][fields][0]=title&populate[blocks][on][shared.slider][populate][0]=files',
      { blocks: { on: { 'shared.media': { populate: { file: {} } }, 'shared.quote': { fields: ['title'] }, 'shared.slider': { populate: { files: {} } } } } },
    ],
    ['populate[blocks][populate]=*', { blocks: { on: { 'shared.rich-text': {}, 'shared.quote': {}, 'shared.media': { populate: { file: {} } }, 'shared.slider': { populate: { files: {} } } } } }],
    ['populate[blocks][populate][0]=file', { blocks: { on: { 'shared.rich-text': {}, 'shared.quote': {}, 'shared.media': { populate: { file: {} } }, 'shared.slider': {} } } }],
    ['populate[categories][populate][articles][fields][0]=title&populate[categories][populate][articles][sort][0]=title', { categories: { populate: { articles: { fields: ['title'], sort: ['title:asc'] } } } }],
  ])('%s', (raw, expected) => {
    expect(populate(raw)).toEqual(expected);
  });

  it('parses 9 nested levels (populate.deep-9)', () => {
    const raw = `populate[parent]${'[populate][parent]'.repeat(8)}[fields][0]=name`;
    let level: unknown = populate(raw, { uid: 'api::category.category' });
    for (let depth = 0; depth < 9; depth += 1) level = (level as { parent: { populate?: unknown; fields?: unknown } }).parent.populate ?? (level as { parent: unknown }).parent;
    expect(level).toEqual({ fields: ['name'] });
  });

  it('fails past qs depth 20 like Strapi (populate.very-deep)', () => {
    const raw = `populate[parent]${'[populate][parent]'.repeat(9)}[fields][0]=name`;
    expect(parseError(raw, { uid: 'api::category.category' })).toEqual({ name: 'ValidationError', message: 'Invalid fields parameter. Expected a string or an array of strings', details: {} });
  });

  it('populates components with * one level (no nested media/components)', () => {
    const node = parse('populate=*').populate.seo!;
    expect(node).toMatchObject({ fields: null, populate: {}, attribute: { kind: 'component', component: 'shared.seo' } });
  });

  it('has localizations only on localized types', () => {
    expect(populate('populate=*', { uid: 'api::category.category' })).toEqual({ articles: {}, parent: {}, children: {} });
    expect(populate('populate=*', { uid: 'api::global.global' })).toEqual({ favicon: {}, defaultSeo: {}, localizations: {} });
    expect(parseError('populate=localizations', { uid: 'api::category.category' })).toEqual(invalidKey('localizations', 'localizations', 'populate'));
  });
});

describe('parsePopulate: permissions', () => {
  it.each([
    ['populate=*', { cover: {}, gallery: {}, categories: {}, seo: {}, blocks: {}, localizations: {} }],
    ['populate[0]=author', {}],
    ['populate[author][populate][0]=avatar', {}],
    ['populate[author][populate][0]=nope', {}],
    ['populate=cover', { cover: {} }],
    ['populate[categories][populate]=*', { categories: { populate: { parent: {}, children: {}, articles: {} } } }],
    ['populate[categories][populate][articles][populate]=*', { categories: { populate: { articles: { populate: { cover: {}, gallery: {}, categories: {}, seo: {}, blocks: {}, localizations: {} } } } } }],
  ])('public %s', (raw, expected) => {
    expect(populate(raw, { public: true })).toEqual(expected);
  });

  it('lets a reader who can find authors populate them', () => {
    expect(populate('populate[author][populate][0]=avatar')).toEqual({ author: { populate: { avatar: {} } } });
    expect(populate('populate=*', { uid: 'api::author.author' })).toEqual({ avatar: {}, articles: {} });
  });
});

describe('parsePopulate: refused', () => {
  it.each([
    ['populate[0]=nope', invalidKey('nope', 'nope', 'populate')],
    ['populate=title', invalidKey('title', 'title', 'populate')],
    ['populate=true', invalidKey('true', 'true', 'populate')],
    ['populate[author][populate][0]=nope', invalidKey('nope', 'nope', 'populate')],
    ['populate[cover][populate][0]=nope', invalidKey('nope', 'nope', 'populate')],
    ['populate[0]=createdBy', invalidKey('createdBy', 'createdBy', 'populate')],
    ['populate=seo.nope', invalidKey('nope', 'nope', 'populate')],
    ['populate[categories][fields][0]=nope', invalidKey('nope', null, 'populate')],
    ['populate[categories][filters][nope]=1', invalidKey('nope', null, 'populate')],
    ['populate[categories][sort]=nope', invalidKey('nope', null, 'populate')],
    ['populate[categories][bogus]=1', invalidKey('bogus', 'bogus', 'populate')],
    ['populate[blocks][on][shared.seo]=true', invalidKey('shared.seo', 'shared.seo', 'populate')],
    ['populate[blocks][populate][0]=nope', invalidKey('nope', 'nope', 'populate')],
    ['populate[seo][filters][metaTitle]=x', invalidKey('filters', 'filters', 'populate')],
    ['populate[author][fields][0]=internalNote', invalidKey('internalNote', 'internalNote', 'populate')],
  ])('%s', (raw, expected) => {
    expect(parseError(raw)).toEqual(expected);
  });

  it.each(['populate[cover]=yes', 'populate[categories][count]=maybe'])('%s is a ValidationError', (raw) => {
    expect(parseError(raw)).toMatchObject({ name: 'ValidationError', details: { source: 'query', param: 'populate' } });
  });
});
