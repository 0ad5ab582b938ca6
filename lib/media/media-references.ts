import type { Attributes, MediaAttribute, Registry } from '../schema';

const MAX_DEPTH = 12;

/**
 * Dot paths (as MongoDB filters address them, through arrays) of every media attribute of `attributes`,
 * also inside components, repeatable components and dynamic zones.
 *
 * @example mediaPaths(registry, article.attributes) // ['cover', 'gallery', 'seo.shareImage', 'blocks.file']
 */
export function mediaPaths(registry: Registry, attributes: Attributes, prefix = '', depth = 0): string[] {
  if (depth > MAX_DEPTH) return [];
  const paths: string[] = [];
  for (const a of Object.values(attributes)) {
    const here = prefix + a.name;
    if (a.kind === 'media') paths.push(here);
    else if (a.kind === 'component') paths.push(...mediaPaths(registry, registry.component(a.component).attributes, `${here}.`, depth + 1));
    else if (a.kind === 'dynamiczone') {
      for (const uid of a.components) paths.push(...mediaPaths(registry, registry.component(uid).attributes, `${here}.`, depth + 1));
    }
  }
  return [...new Set(paths)];
}

/**
 * Removes file `fileId` from every media attribute of `row` (a stored row or an embedded component),
 * walking components and dynamic zones by their schema. Mutates `row`; answers whether it changed.
 * Single media become `null`; multiple media lose the id and keep their order.
 */
export function removeFileFromRow(registry: Registry, attributes: Attributes, row: Record<string, unknown>, fileId: number, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  let changed = false;
  for (const a of Object.values(attributes)) {
    const value = row[a.name];
    if (value === null || value === undefined) continue;
    if (a.kind === 'media') {
      if (Array.isArray(value)) {
        const kept = value.filter((v) => v !== fileId);
        if (kept.length !== value.length) {
          row[a.name] = kept;
          changed = true;
        }
      } else if (value === fileId) {
        row[a.name] = null;
        changed = true;
      }
    } else if (a.kind === 'component') {
      const attrs = registry.component(a.component).attributes;
      for (const item of Array.isArray(value) ? value : [value]) {
        if (isRecord(item) && removeFileFromRow(registry, attrs, item, fileId, depth + 1)) changed = true;
      }
    } else if (a.kind === 'dynamiczone' && Array.isArray(value)) {
      for (const item of value) {
        if (!isRecord(item) || typeof item.__component !== 'string' || !a.components.includes(item.__component)) continue;
        if (removeFileFromRow(registry, registry.component(item.__component).attributes, item, fileId, depth + 1)) changed = true;
      }
    }
  }
  return changed;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Whether a MIME type fits a media attribute's `allowedTypes` (Strapi's categories: `images`, `videos`,
 * `audios`, and `files` for everything else). `null` allows every type.
 *
 * @example mimeAllowed('text/plain', ['images']) // false
 */
export function mimeAllowed(mime: string, allowedTypes: MediaAttribute['allowedTypes']): boolean {
  if (!allowedTypes || allowedTypes.length === 0) return true;
  const category = mime.startsWith('image/') ? 'images' : mime.startsWith('video/') ? 'videos' : mime.startsWith('audio/') ? 'audios' : 'files';
  return allowedTypes.includes(category);
}
