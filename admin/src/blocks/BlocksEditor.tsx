// The rich text editor of a `blocks` attribute, on Slate (slate, slate-react, slate-history: the library Strapi's
// own blocks editor is built on, so the document model is Strapi's format itself; see ./convert.ts).
import CodeIcon from '@mui/icons-material/Code';
import DataObjectIcon from '@mui/icons-material/DataObject';
import FormatBoldIcon from '@mui/icons-material/FormatBold';
import FormatItalicIcon from '@mui/icons-material/FormatItalic';
import FormatListBulletedIcon from '@mui/icons-material/FormatListBulleted';
import FormatListNumberedIcon from '@mui/icons-material/FormatListNumbered';
import FormatQuoteIcon from '@mui/icons-material/FormatQuote';
import FormatUnderlinedIcon from '@mui/icons-material/FormatUnderlined';
import ImageIcon from '@mui/icons-material/Image';
import LinkIcon from '@mui/icons-material/Link';
import StrikethroughSIcon from '@mui/icons-material/StrikethroughS';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Divider, TextField, ToggleButton, Typography } from '@mui/material';
import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { createEditor, Editor, Element, Node, Path, Range, Text, Transforms, type BaseEditor, type Descendant } from 'slate';
import { withHistory, type HistoryEditor } from 'slate-history';
import { Editable, ReactEditor, Slate, useSlate, withReact, type RenderElementProps, type RenderLeafProps } from 'slate-react';
import { useNotify } from 'react-admin';
import { mediaUrl } from '../api';
import { LibraryDialog } from '../inputs/MediaInput';
import { emptyParagraph, fromEditor, imageBlock, isSafeUrl, OPAQUE, type Json, type Mark } from './convert';

type BlockElement = { type: string; children: Descendant[]; [key: string]: unknown };
type Leaf = { text: string; type?: string } & Partial<Record<Mark, boolean>>;

declare module 'slate' {
  interface CustomTypes {
    Editor: BaseEditor & ReactEditor & HistoryEditor;
    Element: BlockElement;
    Text: Leaf;
  }
}

/** The block kinds of the toolbar. */
type Kind = 'paragraph' | `heading-${1 | 2 | 3 | 4 | 5 | 6}` | 'quote' | 'code' | 'list-ordered' | 'list-unordered';
const HEADINGS = [1, 2, 3, 4, 5, 6] as const;
const TEXT_CONTAINERS = new Set(['paragraph', 'heading', 'quote', 'code', 'list-item']);

const isElement = (n: unknown, type?: string): n is BlockElement => Element.isElement(n) && (type === undefined || n.type === type);

/** Strapi's schema in Slate: links are inline, images and opaque blocks void, every text leaf `type: 'text'`, no empty link. */
function withStrapiBlocks(editor: Editor): Editor {
  const { isInline, isVoid, normalizeNode } = editor;
  editor.isInline = (element) => element.type === 'link' || isInline(element);
  editor.isVoid = (element) => element.type === 'image' || element.type === OPAQUE || isVoid(element);
  editor.normalizeNode = (entry) => {
    const [node, path] = entry;
    if (Text.isText(node) && node.type !== 'text') {
      Transforms.setNodes(editor, { type: 'text' }, { at: path });
      return;
    }
    // A link whose text was all deleted goes (only links the user edited: normalization runs on changed nodes).
    if (isElement(node, 'link') && Node.string(node) === '') {
      Transforms.removeNodes(editor, { at: path });
      return;
    }
    normalizeNode(entry);
  };
  return editor;
}

export const makeEditor = (): Editor => withStrapiBlocks(withReact(withHistory(createEditor())));

/**
 * Takes the browser's selection now: slate-react reads it on `selectionchange`, throttled, so a toolbar click or a
 * shortcut right after Shift+Arrow would act on the previous one.
 */
function syncSelection(editor: Editor): void {
  const dom = window.getSelection();
  if (!dom?.rangeCount || !dom.anchorNode || !ReactEditor.hasDOMNode(editor, dom.anchorNode, { editable: true })) return;
  const range = ReactEditor.toSlateRange(editor, dom, { exactMatch: false, suppressThrow: true });
  if (range && !(editor.selection && Range.equals(range, editor.selection))) Transforms.select(editor, range);
}

const isMarkActive = (editor: Editor, mark: Mark) => Editor.marks(editor)?.[mark] === true;

function toggleMark(editor: Editor, mark: Mark): void {
  if (isMarkActive(editor, mark)) Editor.removeMark(editor, mark);
  else Editor.addMark(editor, mark, true);
}

/** The lowest block holding the selection's anchor, and its path. */
function currentBlock(editor: Editor): [BlockElement, Path] | undefined {
  if (!editor.selection) return undefined;
  return Editor.above(editor, { at: editor.selection.anchor, match: (n) => isElement(n) && Editor.isBlock(editor, n), mode: 'lowest' }) as [BlockElement, Path] | undefined;
}

function kindOf(editor: Editor): Kind | undefined {
  const entry = currentBlock(editor);
  if (!entry) return undefined;
  const [block, path] = entry;
  if (block.type === 'list-item') {
    const [list] = Editor.parent(editor, path);
    return isElement(list, 'list') && list.format === 'ordered' ? 'list-ordered' : 'list-unordered';
  }
  if (block.type === 'heading') return `heading-${block.level as 1}`;
  return block.type === 'paragraph' || block.type === 'quote' || block.type === 'code' ? block.type : undefined;
}

/** Turns the selected blocks into `kind` (or back into paragraphs when they are `kind` already). */
function setKind(editor: Editor, wanted: Kind): void {
  const kind: Kind = kindOf(editor) === wanted ? 'paragraph' : wanted;
  const match = (n: Node) => isElement(n) && TEXT_CONTAINERS.has(n.type);
  Editor.withoutNormalizing(editor, () => {
    Transforms.unwrapNodes(editor, { match: (n) => isElement(n, 'list'), split: true, mode: 'all' });
    Transforms.unsetNodes(editor, ['level', 'language'], { match });
    if (kind.startsWith('heading-')) Transforms.setNodes(editor, { type: 'heading', level: Number(kind.slice(8)) }, { match });
    else if (kind === 'code') Transforms.setNodes(editor, { type: 'code', language: 'plaintext' }, { match });
    else if (kind === 'list-ordered' || kind === 'list-unordered') {
      Transforms.setNodes(editor, { type: 'list-item' }, { match });
      Transforms.wrapNodes(editor, { type: 'list', format: kind === 'list-ordered' ? 'ordered' : 'unordered', children: [] }, { match: (n) => isElement(n, 'list-item') });
    } else Transforms.setNodes(editor, { type: kind }, { match });
  });
}

const isLinkActive = (editor: Editor) => !!editor.selection && [...Editor.nodes(editor, { match: (n) => isElement(n, 'link') })].length > 0;

function insertLink(editor: Editor, at: Range, url: string): void {
  Transforms.select(editor, at);
  if (Range.isCollapsed(at)) Transforms.insertNodes(editor, { type: 'link', url, children: [{ type: 'text', text: url }] });
  else Transforms.wrapNodes(editor, { type: 'link', url, children: [] }, { split: true });
}

/**
 * Image blocks at the selection: they replace the block there when it is empty, else follow it (out of a list).
 */
function insertImages(editor: Editor, at: Range, images: Json[]): void {
  Transforms.select(editor, at);
  Editor.withoutNormalizing(editor, () => {
    Transforms.unwrapNodes(editor, { match: (n) => isElement(n, 'list'), split: true, mode: 'all' });
    const entry = Editor.above(editor, { match: (n) => isElement(n) && Editor.isBlock(editor, n) && !Editor.isInline(editor, n), mode: 'lowest' }) as [BlockElement, Path] | undefined;
    if (!entry) return;
    const [block, path] = entry;
    const empty = block.type !== 'image' && block.type !== OPAQUE && Node.string(block) === '';
    if (empty) Transforms.removeNodes(editor, { at: path });
    Transforms.insertNodes(editor, images as BlockElement[], { at: empty ? path : Path.next(path), select: true });
  });
}

/** Enter and Backspace where the default would be wrong for Strapi's blocks; false: let Slate do it. */
function handleKey(editor: Editor, event: KeyboardEvent): boolean {
  syncSelection(editor);
  const { selection } = editor;
  if (!selection || !Range.isCollapsed(selection)) return false;
  const entry = currentBlock(editor);
  if (!entry) return false;
  const [block, path] = entry;
  const atEnd = Editor.isEnd(editor, selection.anchor, path);
  const empty = Node.string(block) === '';
  if (event.key === 'Enter' && event.shiftKey) {
    editor.insertText('\n');
    return true;
  }
  if (event.key === 'Enter') {
    if (block.type === 'code') {
      // A new line in the block; Enter on an empty last line leaves it.
      if (atEnd && Node.string(block).endsWith('\n')) {
        editor.deleteBackward('character');
        Transforms.insertNodes(editor, emptyParagraph() as BlockElement, { at: Path.next(path), select: true });
      } else editor.insertText('\n');
      return true;
    }
    if ((block.type === 'list-item' || block.type === 'quote') && empty) {
      setKind(editor, 'paragraph');
      return true;
    }
    if (block.type === 'heading' && atEnd) {
      Transforms.insertNodes(editor, emptyParagraph() as BlockElement, { at: Path.next(path), select: true });
      return true;
    }
    return false;
  }
  if (event.key === 'Backspace' && block.type !== 'paragraph' && TEXT_CONTAINERS.has(block.type) && Editor.isStart(editor, selection.anchor, path)) {
    setKind(editor, 'paragraph');
    return true;
  }
  return false;
}

const SHORTCUTS: Record<string, Mark> = { b: 'bold', i: 'italic', u: 'underline' };

const RenderElement = ({ attributes, children, element }: RenderElementProps) => {
  switch (element.type) {
    case 'heading': {
      const level = Number(element.level);
      const Tag = `h${level >= 1 && level <= 6 ? level : 2}` as 'h2';
      return <Tag {...attributes}>{children}</Tag>;
    }
    case 'quote':
      return <blockquote {...attributes}>{children}</blockquote>;
    case 'code':
      return <pre {...attributes}><code>{children}</code></pre>;
    case 'list':
      return element.format === 'ordered' ? <ol {...attributes}>{children}</ol> : <ul {...attributes}>{children}</ul>;
    case 'list-item':
      return <li {...attributes}>{children}</li>;
    case 'link':
      return <a {...attributes} href={String(element.url)} title={String(element.url)}>{children}</a>;
    case 'image': {
      const image = (element.image ?? {}) as Json;
      return (
        <div {...attributes}>
          <Box contentEditable={false} sx={{ my: 1 }}>
            <img src={mediaUrl(String(image.url ?? ''))} alt={String(image.alternativeText ?? image.name ?? '')} style={{ maxWidth: '100%', maxHeight: 320 }} />
          </Box>
          {children}
        </div>
      );
    }
    case OPAQUE: {
      const original = element.original as Json | null;
      const type = original && typeof original === 'object' && typeof original.type === 'string' ? original.type : typeof original;
      return (
        <div {...attributes}>
          <Typography contentEditable={false} variant="body2" color="text.secondary" sx={{ my: 1, p: 1, border: 1, borderStyle: 'dashed', borderColor: 'divider', borderRadius: 1 }}>
            A <code>{type}</code> block this editor does not edit: it is kept as it is (Edit as JSON to change it).
          </Typography>
          {children}
        </div>
      );
    }
    default:
      return <p {...attributes}>{children}</p>;
  }
};

const RenderLeaf = ({ attributes, children, leaf }: RenderLeafProps) => {
  let out: ReactNode = children;
  if (leaf.code) out = <code>{out}</code>;
  if (leaf.bold) out = <strong>{out}</strong>;
  if (leaf.italic) out = <em>{out}</em>;
  if (leaf.underline) out = <u>{out}</u>;
  if (leaf.strikethrough) out = <s>{out}</s>;
  return <span {...attributes}>{out}</span>;
};

const MARK_BUTTONS: [Mark, string, ReactNode][] = [
  ['bold', 'Bold (Ctrl+B)', <FormatBoldIcon fontSize="small" />],
  ['italic', 'Italic (Ctrl+I)', <FormatItalicIcon fontSize="small" />],
  ['underline', 'Underline (Ctrl+U)', <FormatUnderlinedIcon fontSize="small" />],
  ['strikethrough', 'Strikethrough', <StrikethroughSIcon fontSize="small" />],
  ['code', 'Inline code', <CodeIcon fontSize="small" />],
];
const KIND_BUTTONS: [Kind, string, ReactNode][] = [
  ['paragraph', 'Paragraph', '¶'],
  ...HEADINGS.map((l): [Kind, string, ReactNode] => [`heading-${l}`, `Heading ${l}`, `H${l}`]),
  ['list-unordered', 'Bulleted list', <FormatListBulletedIcon fontSize="small" />],
  ['list-ordered', 'Numbered list', <FormatListNumberedIcon fontSize="small" />],
  ['quote', 'Quote', <FormatQuoteIcon fontSize="small" />],
  ['code', 'Code block', <DataObjectIcon fontSize="small" />],
];

/** A toolbar button: pressed when its format is on; it keeps the editor's focus and selection. */
const ToolButton = ({ label, pressed, onClick, children }: { label: string; pressed: boolean; onClick: () => void; children: ReactNode }) => (
  <ToggleButton
    value={label}
    size="small"
    selected={pressed}
    aria-label={label.replace(/ \(.*\)$/, '')}
    title={label}
    onMouseDown={(e) => e.preventDefault()}
    onChange={onClick}
    sx={{ minWidth: 34, px: 0.75, py: 0.25, border: 0, fontWeight: 600, fontSize: 13 }}
  >
    {children}
  </ToggleButton>
);

const Toolbar = ({ label, onLink, onImage }: { label: string; onLink: () => void; onImage: () => void }) => {
  const editor = useSlate();
  const kind = kindOf(editor);
  const run = (f: () => void) => () => {
    syncSelection(editor);
    f();
    ReactEditor.focus(editor);
  };
  return (
    <Box role="toolbar" aria-label={`${label} formatting`} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.25, p: 0.5, borderBottom: 1, borderColor: 'divider' }}>
      {MARK_BUTTONS.map(([mark, title, icon]) => (
        <ToolButton key={mark} label={title} pressed={isMarkActive(editor, mark)} onClick={run(() => toggleMark(editor, mark))}>{icon}</ToolButton>
      ))}
      <ToolButton label="Link" pressed={isLinkActive(editor)} onClick={() => {
          syncSelection(editor);
          if (isLinkActive(editor)) run(() => Transforms.unwrapNodes(editor, { match: (n) => isElement(n, 'link') }))();
          else onLink();
        }}>
        <LinkIcon fontSize="small" />
      </ToolButton>
      <ToolButton label="Image from the media library" pressed={false} onClick={() => {
          syncSelection(editor);
          onImage();
        }}>
        <ImageIcon fontSize="small" />
      </ToolButton>
      <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />
      {KIND_BUTTONS.map(([k, title, icon]) => (
        <ToolButton key={k} label={title} pressed={kind === k} onClick={run(() => setKind(editor, k))}>{icon}</ToolButton>
      ))}
    </Box>
  );
};

/** The URL of a new link: http(s), mailto or relative only. */
const LinkDialog = ({ open, onClose, onSubmit }: { open: boolean; onClose: () => void; onSubmit: (url: string) => void }) => {
  const [url, setUrl] = useState('');
  const [error, setError] = useState('');
  const submit = () => {
    if (!isSafeUrl(url)) return setError('An http(s) or mailto: URL, or a relative one');
    onSubmit(url.trim());
    setUrl('');
    setError('');
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="blocks-link-title" disableRestoreFocus>
      <DialogTitle id="blocks-link-title">Link</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          label="URL"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), submit())}
          error={!!error}
          helperText={error || 'https://..., mailto:..., or /a/relative/path'}
          sx={{ mt: 1, minWidth: 360 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit}>Add link</Button>
      </DialogActions>
    </Dialog>
  );
};

/**
 * The editor over a document from `toEditor`; `onChange` gets the value to write (`fromEditor`) after each change
 * of the content (never for a mere selection, so a value nobody edited is never rewritten).
 */
export const BlocksEditor = ({ initial, label, labelId, onChange, error }: { initial: Json[]; label: string; labelId: string; onChange: (value: unknown[]) => void; error?: boolean }) => {
  const editor = useMemo(makeEditor, []);
  const [linkAt, setLinkAt] = useState<Range | null>(null);
  const [imageAt, setImageAt] = useState<Range | null>(null);
  const notify = useNotify();
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const mark = SHORTCUTS[event.key.toLowerCase()];
    if (mark && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) {
      event.preventDefault();
      syncSelection(editor);
      toggleMark(editor, mark);
      return;
    }
    if ((event.key === 'Enter' || event.key === 'Backspace') && handleKey(editor, event)) event.preventDefault();
  };
  return (
    <Box sx={{ border: 1, borderColor: error ? 'error.main' : 'divider', borderRadius: 1, '&:focus-within': { borderColor: 'primary.main' } }}>
      <Slate editor={editor} initialValue={initial as Descendant[]} onValueChange={(nodes) => onChange(fromEditor(nodes))}>
        <Toolbar label={label} onLink={() => {
          syncSelection(editor);
          if (editor.selection) setLinkAt(editor.selection);
        }}
        onImage={() => setImageAt(editor.selection ?? Editor.range(editor, Editor.end(editor, [])))} />
        <Box sx={{ px: 1.5, py: 0.5, '& [role=textbox]': { minHeight: 96, outline: 'none' }, '& pre': { bgcolor: 'action.hover', p: 1, borderRadius: 1, whiteSpace: 'pre-wrap' }, '& blockquote': { borderLeft: 4, borderColor: 'divider', pl: 1.5, ml: 0, color: 'text.secondary' } }}>
          <Editable
            aria-labelledby={labelId}
            renderElement={RenderElement}
            renderLeaf={RenderLeaf}
            onKeyDown={onKeyDown}
            placeholder="Write here…"
            spellCheck
          />
        </Box>
        <LinkDialog
          open={!!linkAt}
          onClose={() => setLinkAt(null)}
          onSubmit={(url) => {
            if (linkAt) insertLink(editor, linkAt, url);
            setLinkAt(null);
            ReactEditor.focus(editor);
          }}
        />
        <LibraryDialog
          open={!!imageAt}
          multiple
          onClose={() => setImageAt(null)}
          onPick={(files) => {
            const images = files.filter((f) => String(f.mime ?? '').startsWith('image/'));
            if (images.length < files.length) notify('Only images go in an image block: the other files were left out', { type: 'warning' });
            if (imageAt && images.length) insertImages(editor, imageAt, images.map((f) => imageBlock(f as Json)));
            setImageAt(null);
            ReactEditor.focus(editor);
          }}
        />
      </Slate>
    </Box>
  );
};
