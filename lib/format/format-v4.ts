import type { Attributes, Registry } from '../schema';

type Row = Record<string, unknown>;

const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Converts formatted v5 documents into Strapi v4's response shape: `{ id, documentId, attributes }`, with
 * populated relations and media wrapped in `{ data }` (components stay inline, their relations wrapped).
 */
export function toV4(registry: Registry, uid: string, data: unknown): unknown {
  if (Array.isArray(data)) return data.map((d) => toV4(registry, uid, d));
  if (!isRow(data)) return data;
  const ct = registry.contentType(uid);
  const { id, documentId, ...rest } = data;
  return { id, documentId, attributes: convertAttributes(registry, ct.attributes, rest, uid) };
}

function convertAttributes(registry: Registry, attributes: Attributes, values: Row, uid: string | null): Row {
  const out: Row = {};
  for (const [name, value] of Object.entries(values)) {
    const a = attributes[name];
    if (name === 'localizations' && uid) out[name] = { data: toV4(registry, uid, value) };
    else if (a?.kind === 'relation' || a?.kind === 'media') out[name] = { data: toV4(registry, a.target, value) };
    else if (a?.kind === 'component') out[name] = mapItems(value, (item) => inline(registry, a.component, item));
    else if (a?.kind === 'dynamiczone') out[name] = mapItems(value, (item) => inline(registry, String(item.__component), item));
    else out[name] = value;
  }
  return out;
}

function inline(registry: Registry, componentUid: string, item: Row): Row {
  const component = registry.components.get(componentUid);
  return component ? convertAttributes(registry, component.attributes, item, null) : item;
}

function mapItems(value: unknown, fn: (item: Row) => Row): unknown {
  if (Array.isArray(value)) return value.map((v) => (isRow(v) ? fn(v) : v));
  return isRow(value) ? fn(value) : value;
}
