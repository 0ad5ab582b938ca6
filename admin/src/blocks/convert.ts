// Strapi 5's `blocks` rich text <-> the editor's (Slate's) document. Framework-free: jest tests it as it is
// (__tests__/unit/admin/blocks-convert.test.ts).
//
// Strapi's format is Slate's own (its admin edits it with Slate): blocks `paragraph`, `heading` (`level` 1-6),
// `quote`, `code` (`language`), `list` (`format` ordered|unordered, `indentLevel`; children `list-item`s and nested
// `list`s), `image` (`image`: the file; one empty text child), inlines `link` (`url`, text children) and text
// leaves `{ type: 'text', text, bold?, italic?, underline?, strikethrough?, code? }`. So most nodes go to the editor
// as they are, with every property they have. A node the editor does not know, or a known one that is not well
// formed, goes in as an opaque void block holding the original, and comes back as that original: nothing the API
// gave is lost or rewritten.

export type Json = Record<string, unknown>;

/** A block the editor shows but does not edit: `original` is sent back as it came. */
export const OPAQUE = 'content-router-opaque';

/** How deep lists may nest before the whole list is kept opaque (a hostile value cannot blow the stack). */
export const MAX_DEPTH = 24;

export const MARKS = ['bold', 'italic', 'underline', 'strikethrough', 'code'] as const;
export type Mark = (typeof MARKS)[number];

const TEXT_BLOCKS = new Set(['paragraph', 'heading', 'quote', 'code']);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const isText = (v: unknown): boolean => isObject(v) && v.type === 'text' && typeof v.text === 'string';

const isLink = (v: unknown): boolean =>
  isObject(v) && v.type === 'link' && typeof v.url === 'string' && Array.isArray(v.children) && v.children.length > 0 && v.children.every(isText);

/** Children of a block that holds text: text leaves and links, at least one. */
const isInlineList = (v: unknown): boolean => Array.isArray(v) && v.length > 0 && v.every((c) => isText(c) || isLink(c));

function isList(v: unknown, depth: number): boolean {
  if (!isObject(v) || v.type !== 'list' || depth > MAX_DEPTH) return false;
  if (!Array.isArray(v.children) || v.children.length === 0) return false;
  return v.children.every((c) => (isObject(c) && c.type === 'list-item' ? isInlineList(c.children) : isList(c, depth + 1)));
}

/** Whether the editor can edit `block` as it is (else it is kept opaque). */
export function isEditableBlock(block: unknown): boolean {
  if (!isObject(block) || typeof block.type !== 'string') return false;
  if (block.type === 'heading' && !(Number.isInteger(block.level) && (block.level as number) >= 1 && (block.level as number) <= 6)) return false;
  if (TEXT_BLOCKS.has(block.type)) return isInlineList(block.children);
  if (block.type === 'list') return isList(block, 0);
  if (block.type === 'image') return isObject(block.image) && Array.isArray(block.children) && block.children.length > 0 && block.children.every(isText);
  return false;
}

/** The empty paragraph: the editor's document when the value is empty (sent only once the user typed). */
export const emptyParagraph = (): Json => ({ type: 'paragraph', children: [{ type: 'text', text: '' }] });

/**
 * The editor's document for an attribute's value. `null`, `undefined` and `[]` give one empty paragraph (the
 * editor needs a block to type in). A value that is not an array is not blocks: `null` (the caller offers JSON).
 */
export function toEditor(value: unknown): Json[] | null {
  if (value === null || value === undefined) return [emptyParagraph()];
  if (!Array.isArray(value)) return null;
  if (value.length === 0) return [emptyParagraph()];
  return value.map((block: unknown) => (isEditableBlock(block) ? (block as Json) : { type: OPAQUE, original: block, children: [{ type: 'text', text: '' }] }));
}

/** A node of the editor back to Strapi's: opaque blocks give their original; a text leaf always has `type: 'text'`. */
function nodeToBlocks(node: unknown): unknown {
  if (!isObject(node)) return node;
  if (node.type === OPAQUE) return node.original;
  if (typeof node.text === 'string' && !Array.isArray(node.children)) return node.type === 'text' ? node : { type: 'text', ...node };
  if (Array.isArray(node.children)) return { ...node, children: node.children.map(nodeToBlocks) };
  return node;
}

/** The value to write from the editor's document. */
export function fromEditor(nodes: readonly unknown[]): unknown[] {
  return nodes.map(nodeToBlocks);
}

/**
 * Whether a link's URL may be stored: http(s), mailto, or a relative URL (no scheme). Anything else
 * (`javascript:`, `data:`, `vbscript:`...) is refused, as are control characters and blanks (a browser strips
 * them, so ` java\tscript:` would still be a scheme).
 */
export function isSafeUrl(url: string): boolean {
  const u = url.trim();
  if (u === '' || u.length > 2048 || /[\u0000-\u0020\u007f]/.test(u)) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(u);
  if (!scheme) return true; // relative: a path, `#anchor`, `?query`, or `//host/...` (the page's own scheme)
  return ['http', 'https', 'mailto'].includes(scheme[1]!.toLowerCase());
}

/** The fields of a file an image block keeps (those of Strapi's admin's image blocks). */
const IMAGE_FIELDS = ['name', 'alternativeText', 'url', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt'];

/** An image block for a file of the media library (its alternative text defaults to its name, as in Strapi). */
export function imageBlock(file: Json): Json {
  const image: Json = {};
  for (const key of IMAGE_FIELDS) if (file[key] !== undefined) image[key] = file[key];
  if (!image.alternativeText) image.alternativeText = image.name ?? null;
  return { type: 'image', image, children: [{ type: 'text', text: '' }] };
}
