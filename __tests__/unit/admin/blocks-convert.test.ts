// The built-in admin's blocks editor converters (admin/src/blocks/convert.ts): Strapi's `blocks` value <-> the
// editor's document. What the API gives comes back exactly; what the editor cannot edit is kept opaque.
import { emptyParagraph, fromEditor, imageBlock, isEditableBlock, isSafeUrl, MAX_DEPTH, OPAQUE, toEditor } from '../../../admin/src/blocks/convert';

const text = (t: string, marks: Record<string, boolean> = {}) => ({ type: 'text', text: t, ...marks });

// Every node kind of Strapi 5's blocks, as its admin writes them.
const strapiDocument = [
  { type: 'heading', level: 2, children: [text('Title')] },
  { type: 'paragraph', children: [text('Plain, '), text('bold', { bold: true }), text(' and '), { type: 'link', url: 'https://strapi.io', children: [text('a link', { italic: true })] }, text('')] },
  { type: 'list', format: 'ordered', children: [
    { type: 'list-item', children: [text('one')] },
    { type: 'list', format: 'unordered', indentLevel: 1, children: [{ type: 'list-item', children: [text('nested', { code: true, underline: true, strikethrough: true })] }] },
  ] },
  { type: 'quote', children: [text('Quoted')] },
  { type: 'code', language: 'typescript', children: [text('const a = 1;\nconst b = 2;')] },
  { type: 'image', image: { name: 'a.png', alternativeText: 'A', url: '/uploads/a.png', width: 16, height: 12, formats: {}, hash: 'a', ext: '.png', mime: 'image/png', size: 0.1 }, children: [text('')] },
];

describe('blocks <-> editor', () => {
  test('every Strapi node goes to the editor as it is and comes back equal', () => {
    const doc = toEditor(strapiDocument)!;
    expect(doc).toEqual(strapiDocument);
    expect(doc.every((b) => b.type !== OPAQUE)).toBe(true);
    expect(fromEditor(doc)).toEqual(strapiDocument);
  });

  test('unknown and malformed blocks are kept opaque and come back as they were', () => {
    const odd = [
      { type: 'embed', url: 'https://example.com/video', children: [] },
      { type: 'heading', level: 9, children: [text('level 9')] },
      { type: 'paragraph', children: [] },
      { type: 'paragraph', children: [{ type: 'mention', id: 3 }] },
      { type: 'list', format: 'ordered', children: [{ type: 'paragraph', children: [text('not an item')] }] },
      { type: 'link', url: '/top-level', children: [text('inline at the top')] },
      'a string',
      null,
      42,
      { type: 'paragraph', children: [{ type: 'text', text: 5 }] },
      { type: 'image', children: [text('')] },
    ];
    const doc = toEditor(odd)!;
    expect(doc.map((b) => b.type)).toEqual(odd.map(() => OPAQUE));
    for (const block of doc) expect(block.children).toEqual([text('')]); // Slate's void elements need a text
    const back = fromEditor(doc);
    expect(back).toEqual(odd);
    back.forEach((b, i) => expect(b).toBe(odd[i])); // the very values, not copies
  });

  test('extra properties of known nodes are kept', () => {
    const withExtras = [{ type: 'paragraph', id: 'p1', children: [{ type: 'link', url: '/x', rel: 'noopener', target: '_blank', children: [text('x', { color: 'red' } as never)] }] }];
    expect(fromEditor(toEditor(withExtras)!)).toEqual(withExtras);
  });

  test('an empty value gives one empty paragraph in the editor; a value that is not an array is not blocks', () => {
    expect(toEditor(null)).toEqual([emptyParagraph()]);
    expect(toEditor(undefined)).toEqual([emptyParagraph()]);
    expect(toEditor([])).toEqual([emptyParagraph()]);
    expect(emptyParagraph()).toEqual({ type: 'paragraph', children: [{ type: 'text', text: '' }] });
    expect(toEditor('{"type":')).toBeNull();
    expect(toEditor({ type: 'paragraph' })).toBeNull();
  });

  test('text leaves the editor made without a type get type: text; opaque blocks nested in nothing else are unwrapped', () => {
    const edited = [{ type: 'paragraph', children: [{ text: 'typed', bold: true }] }, { type: OPAQUE, original: { type: 'x' }, children: [{ text: '' }] }];
    expect(fromEditor(edited)).toEqual([{ type: 'paragraph', children: [{ type: 'text', text: 'typed', bold: true }] }, { type: 'x' }]);
  });

  test('lists nested deeper than MAX_DEPTH are kept opaque (a hostile value cannot exhaust the stack)', () => {
    let list: Record<string, unknown> = { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [text('deep')] }] };
    for (let i = 0; i < MAX_DEPTH; i++) list = { type: 'list', format: 'unordered', children: [list] };
    expect(isEditableBlock(list)).toBe(true);
    let deeper = list;
    for (let i = 0; i < 100_000; i++) deeper = { type: 'list', format: 'unordered', children: [deeper] };
    expect(isEditableBlock(deeper)).toBe(false);
    expect(toEditor([deeper])![0]!.type).toBe(OPAQUE);
  });
});

describe('image blocks from the media library', () => {
  test("the file's fields Strapi keeps, the name as alternative text when it has none; an editable block", () => {
    const file = { id: 7, documentId: 'abc', name: 'logo.png', alternativeText: null, caption: null, url: '/uploads/logo_1.png', width: 64, height: 64, formats: { thumbnail: { url: '/uploads/t.png' } }, hash: 'logo_1', ext: '.png', mime: 'image/png', size: 0.2, provider: 'local', folderPath: '/', related: [], createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', publishedAt: null };
    const block = imageBlock(file);
    expect(block).toEqual({
      type: 'image',
      image: { name: 'logo.png', alternativeText: 'logo.png', caption: null, url: '/uploads/logo_1.png', width: 64, height: 64, formats: file.formats, hash: 'logo_1', ext: '.png', mime: 'image/png', size: 0.2, provider: 'local', createdAt: file.createdAt, updatedAt: file.updatedAt },
      children: [{ type: 'text', text: '' }],
    });
    expect(isEditableBlock(block)).toBe(true);
    expect((imageBlock({ ...file, alternativeText: 'A logo' }).image as { alternativeText: string }).alternativeText).toBe('A logo');
  });
});

describe('link URLs', () => {
  test.each(['https://strapi.io/blog?a=1#b', 'http://localhost:1337', 'mailto:ada@example.com', '/relative/path', 'page.html', '#anchor', '?q=1', '//cdn.example.com/x', 'HTTPS://EXAMPLE.COM'])('%s is accepted', (url) => {
    expect(isSafeUrl(url)).toBe(true);
  });
  test.each(['javascript:alert(1)', 'JavaScript:alert(1)', 'java\tscript:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x', 'file:///etc/passwd', '', '   ', 'https://a b', `https://${'a'.repeat(3000)}`])('refused: %#', (url) => {
    expect(isSafeUrl(url)).toBe(false);
  });
});
