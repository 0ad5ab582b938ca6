import { vercelStegaDecode, vercelStegaDecodeAll, vercelStegaSplit } from '@vercel/stega';
import { compileEditUrl } from '../../../lib/format/edit-url';
import { encodeSourceMaps } from '../../../lib/format/encode-source-maps';
import { createRegistry } from '../../../lib/schema';
import { httpComponents, httpContentTypes } from '../../fixtures/http-model';

/**
 * Strapi 5's content source maps (packages/core/core/src/services/content-source-maps.ts) on formatted documents:
 * which values carry a payload, and what it says. Decoded with @vercel/stega, as a preview overlay decodes them.
 */
const registry = createRegistry({ contentTypes: httpContentTypes, components: httpComponents, i18n: { locales: ['en', 'fr'] } });
const plain = { editUrl: null };

type Row = Record<string, any>;

/** The payload of a value, its `strapiSource` as an object; null when it carries none. */
function source(value: unknown): Record<string, string> | null {
  if (typeof value !== 'string') return null;
  const decoded = vercelStegaDecode<{ strapiSource: string; href?: string }>(value);
  return decoded ? Object.fromEntries(new URLSearchParams(decoded.strapiSource)) : null;
}

/** The value without its hidden characters. */
const clean = (value: unknown): unknown => (typeof value === 'string' ? vercelStegaSplit(value).cleaned : value);

const gadget: Row = {
  id: 7, documentId: 'g1', name: 'Widget', code: 'ABC', text: 'Some text', rich: '# Title', email: 'a@b.co', slug: 'widget',
  count: 5, big: '9007199254740993', ratio: 1.5, price: 9.99, flag: true, day: '2026-01-02', at: '10:00:00.000', when: '2026-01-02T10:00:00.000Z',
  stamp: '2026-01-02T10:00:00.000Z', meta: { a: 1 }, size: 'm', content: [{ type: 'paragraph', children: [{ type: 'text', text: 'Hello' }] }],
  createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', publishedAt: null, locale: 'fr',
};

describe('encodeSourceMaps', () => {
  it.each([
    ['name', 'string'], ['code', 'string'], ['text', 'text'], ['rich', 'richtext'], ['email', 'email'], ['big', 'biginteger'],
    ['day', 'date'], ['at', 'time'], ['when', 'datetime'], ['stamp', 'timestamp'], ['size', 'enumeration'],
    ['createdAt', 'datetime'], ['updatedAt', 'datetime'],
  ])('encodes %s (%s) with the document, the type, the path, the model, the kind and the locale', (key, type) => {
    const out = encodeSourceMaps(registry, 'api::gadget.gadget', gadget, plain) as Row;
    expect(clean(out[key])).toBe(gadget[key]);
    expect(source(out[key])).toEqual({ documentId: 'g1', type, path: key, model: 'api::gadget.gadget', kind: 'collectionType', locale: 'fr' });
  });

  it.each(['id', 'documentId', 'locale', 'publishedAt', 'slug', 'count', 'ratio', 'price', 'flag', 'meta'])('leaves %s as it is', (key) => {
    const out = encodeSourceMaps(registry, 'api::gadget.gadget', { ...gadget, publishedAt: '2026-01-01T00:00:00.000Z' }, plain) as Row;
    expect(out[key]).toEqual(key === 'publishedAt' ? '2026-01-01T00:00:00.000Z' : gadget[key]);
  });

  it('encodes the text of every blocks node, with the path in the value and the field as fieldPath', () => {
    const content = [
      { type: 'paragraph', children: [{ type: 'text', text: 'One' }, { type: 'link', url: 'https://example.com', children: [{ type: 'text', text: 'Two' }] }] },
    ];
    const out = encodeSourceMaps(registry, 'api::gadget.gadget', { ...gadget, content }, plain) as Row;
    expect(source(out.content[0].children[0].text)).toMatchObject({ type: 'blocks', path: 'content.0.children.0.text', fieldPath: 'content', documentId: 'g1' });
    expect(source(out.content[0].children[1].children[0].text)).toMatchObject({ path: 'content.0.children.1.children.0.text', fieldPath: 'content' });
    expect(out.content[0].children[1].url).toBe('https://example.com');
    expect(out.content[0].type).toBe('paragraph');
  });

  it('encodes a json value shaped like blocks as blocks, and a json string as json', () => {
    const out = encodeSourceMaps(registry, 'api::gadget.gadget', { ...gadget, meta: [{ type: 'paragraph', children: [{ type: 'text', text: 'x' }] }] }, plain) as Row;
    expect(source(out.meta[0].children[0].text)).toMatchObject({ type: 'blocks', path: 'meta.0.children.0.text', fieldPath: 'meta' });
    const text = encodeSourceMaps(registry, 'api::gadget.gadget', { ...gadget, meta: 'just a string' }, plain) as Row;
    expect(source(text.meta)).toMatchObject({ type: 'json', path: 'meta' });
  });

  it('walks relations, components and dynamic zones with their own model, the paths from the entry, its document and locale', () => {
    const maker: Row = {
      id: 1, documentId: 'm1', title: 'Acme',
      partner: { id: 2, documentId: 'm2', title: 'Partner', createdAt: '2026-01-01T00:00:00.000Z' },
      rivals: [{ id: 3, documentId: 'm3', title: 'Rival' }],
      part: { id: 1, label: 'Main', qty: 2, notes: [{ id: 1, body: 'note', day: null }] },
      parts: [{ id: 2, label: 'A', qty: 1 }, { id: 3, label: 'B', qty: 1 }],
      zone: [{ id: 4, __component: 'parts.note', body: 'in the zone' }, { id: 5, __component: 'parts.part', label: 'zoned' }],
    };
    const out = encodeSourceMaps(registry, 'api::maker.maker', maker, plain) as Row;
    expect(source(out.partner.title)).toEqual({ documentId: 'm1', type: 'string', path: 'partner.title', model: 'api::maker.maker', kind: 'collectionType' });
    expect(source(out.partner.createdAt)).toMatchObject({ path: 'partner.createdAt', type: 'datetime' });
    expect(out.partner.documentId).toBe('m2');
    expect(source(out.rivals[0].title)).toMatchObject({ documentId: 'm1', path: 'rivals.0.title' });
    expect(source(out.part.label)).toEqual({ documentId: 'm1', type: 'string', path: 'part.label', model: 'parts.part' });
    expect(out.part.qty).toBe(2);
    expect(source(out.part.notes[0].body)).toMatchObject({ path: 'part.notes.0.body', model: 'parts.note', type: 'text' });
    expect(out.part.notes[0].day).toBeNull();
    expect(source(out.parts[1].label)).toMatchObject({ path: 'parts.1.label', model: 'parts.part' });
    expect(source(out.zone[0].body)).toMatchObject({ path: 'zone.0.body', model: 'parts.note' });
    expect(source(out.zone[1].label)).toMatchObject({ path: 'zone.1.label', model: 'parts.part' });
    expect(out.zone[1].__component).toBe('parts.part');
  });

  it("encodes a file's url as media (then, walked as a file, its string fields), single and multiple", () => {
    const file = { id: 9, documentId: 'f1', name: 'logo.png', url: '/uploads/logo.png', width: 10, formats: { thumbnail: { url: '/uploads/t.png' } } };
    const out = encodeSourceMaps(registry, 'api::maker.maker', { id: 1, documentId: 'm1', title: 'Acme', logo: file, photos: [file, file] }, plain) as Row;
    const sources = (value: string) => vercelStegaDecodeAll<{ strapiSource: string }>(value).map((d) => Object.fromEntries(new URLSearchParams(d.strapiSource)));
    expect(sources(out.logo.url)).toEqual([
      { documentId: 'm1', type: 'media', path: 'logo.url', model: 'api::maker.maker', kind: 'collectionType' },
      { documentId: 'm1', type: 'text', path: 'logo.url', model: 'plugin::upload.file', kind: 'collectionType' },
    ]);
    expect(source(out.photos[1].url)).toMatchObject({ type: 'media', path: 'photos.1.url' });
    expect(source(out.logo.name)).toMatchObject({ type: 'string', path: 'logo.name', model: 'plugin::upload.file' });
    expect(out.logo.formats).toEqual(file.formats);
    expect(clean(out.logo.url)).toBe('/uploads/logo.png');
  });

  it('encodes populated localizations, not the key itself; a list entry by entry', () => {
    const fr = { ...gadget, localizations: [{ id: 8, documentId: 'g1', name: 'Gadget', locale: 'en' }] };
    const [out] = encodeSourceMaps(registry, 'api::gadget.gadget', [fr], plain) as Row[];
    expect(source(out!.localizations[0].name)).toMatchObject({ path: 'localizations.0.name', locale: 'fr', documentId: 'g1' });
    expect(out!.localizations[0].locale).toBe('en');
  });

  it('adds the edit link of the entry document, from the template, values URL-encoded', () => {
    const editUrl = compileEditUrl('https://cms.example.com/#/{pluralName}/{documentId}?locale={locale}&field={path}&m={model}&k={kind}&s={singularName}');
    const out = encodeSourceMaps(registry, 'api::maker.maker', { id: 1, documentId: 'm 1', title: 'Acme', part: { id: 1, label: 'x' } }, { editUrl }) as Row;
    expect(vercelStegaDecode(out.part.label)).toEqual({
      strapiSource: 'documentId=m+1&type=string&path=part.label&model=parts.part',
      href: 'https://cms.example.com/#/makers/m%201?locale=&field=part.label&m=api%3A%3Amaker.maker&k=collectionType&s=maker',
    });
  });

  it('changes nothing of its argument, and passes null and non-objects through', () => {
    const copy = structuredClone(gadget);
    encodeSourceMaps(registry, 'api::gadget.gadget', gadget, plain);
    expect(gadget).toEqual(copy);
    expect(encodeSourceMaps(registry, 'api::gadget.gadget', null, plain)).toBeNull();
  });
});
