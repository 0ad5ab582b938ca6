import type { Attributes, Registry } from '../schema';
import type { PopulateMap, PopulateNode } from '../query/types';
import { copyValue } from './json-value';
import { populateTotals } from './populate-totals';

type Row = Record<string, unknown>;

/** What to render of one row: the selected scalar fields and the populate tree. */
export interface Selection {
  readonly fields: readonly string[] | null;
  readonly populate: PopulateMap;
}

/** System fields written after the attributes, when the type has them. */
export const TRAILING_SYSTEM = ['createdAt', 'updatedAt', 'publishedAt', 'locale'] as const;

/**
 * Renders one stored (and populated) row of a content type as Strapi 5's flat document: `id`, `documentId`,
 * selected scalar attributes (null when empty), populated attributes, timestamps and `locale` (localized types
 * only). Private attributes, passwords and internal fields never appear. The result shares no object with
 * `row` (stored values are copied).
 */
export function formatDocument(registry: Registry, uid: string, row: Row, selection: Selection): Row {
  const ct = registry.contentType(uid);
  const out: Row = { id: row.id, documentId: row.documentId };
  formatAttributes(registry, ct.attributes, ct.attributeNames, row, selection, out);
  for (const name of TRAILING_SYSTEM) {
    if (!(name in ct.attributes)) continue;
    if (selection.fields === null || selection.fields.includes(name)) out[name] = copyValue(row[name] ?? null);
  }
  const loc = selection.populate.localizations;
  if (loc && Array.isArray(row.localizations)) {
    out.localizations = (row.localizations as Row[]).map((r) => formatDocument(registry, uid, r, loc));
  }
  const totals = populateTotals(row, selection.populate);
  if (totals) out.meta = totals;
  return out;
}

/** Renders a component (or dynamic zone item) row: `id`, its scalar fields and what is populated under it. */
export function formatComponent(registry: Registry, componentUid: string, row: Row, selection: Selection): Row {
  const component = registry.component(componentUid);
  const out: Row = { id: row.id };
  formatAttributes(registry, component.attributes, component.attributeNames, row, selection, out);
  return out;
}

function formatAttributes(
  registry: Registry,
  attributes: Attributes,
  names: readonly string[],
  row: Row,
  selection: Selection,
  out: Row,
): void {
  for (const name of names) {
    const attribute = attributes[name]!;
    if (attribute.private) continue;
    if (attribute.kind === 'scalar') {
      if (selection.fields === null || selection.fields.includes(name)) out[name] = copyValue(row[name] ?? null);
      continue;
    }
    const node = selection.populate[name];
    if (!node) continue;
    out[name] = formatPopulated(registry, node, row[name]);
  }
}

function formatPopulated(registry: Registry, node: PopulateNode, value: unknown): unknown {
  const attribute = node.attribute;
  if (node.count && value && typeof value === 'object' && !Array.isArray(value) && 'count' in value) return copyValue(value);
  switch (attribute.kind) {
    case 'relation':
    case 'media': {
      const uid = attribute.target;
      if (Array.isArray(value)) return value.filter(isRow).map((r) => formatDocument(registry, uid, r, node));
      const multiple = attribute.kind === 'media' ? attribute.multiple : attribute.toMany;
      if (multiple) return [];
      return isRow(value) ? formatDocument(registry, uid, value, node) : null;
    }
    case 'component': {
      if (attribute.repeatable) {
        return Array.isArray(value) ? value.filter(isRow).map((r) => formatComponent(registry, attribute.component, r, node)) : [];
      }
      return isRow(value) ? formatComponent(registry, attribute.component, value, node) : null;
    }
    case 'dynamiczone': {
      if (!Array.isArray(value)) return [];
      const items: Row[] = [];
      for (const item of value.filter(isRow)) {
        const uid = String(item.__component);
        const itemNode = node.on ? node.on[uid] : node;
        if (!itemNode || !registry.components.has(uid)) continue;
        items.push({ ...formatComponent(registry, uid, item, itemNode), __component: uid });
      }
      return items;
    }
    default:
      return copyValue(value);
  }
}

function isRow(v: unknown): v is Row {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
