import qs from 'qs';
import type { Attributes, ContentType, Registry } from '../../lib/schema';
import type { ExportLines } from './transfer-helpers';

type Data = Record<string, unknown>;
type Link = ExportLines['links'][number];

/**
 * What an export's own lines say a document version reads as over REST: its attributes (private ones aside),
 * components and zones without ids, owning relations as the targets' documentIds in link order, media as the
 * files' documentIds in order.
 */
export function createExpectations(lines: ExportLines, registry: Registry) {
  const documentIdOf = new Map<string, string>();
  for (const e of lines.entities) documentIdOf.set(`${e.type}:${e.id}`, e.data.documentId as string);
  const owned = new Map<string, { field: string; target: string; pos: number; seq: number }[]>();
  lines.links.forEach((l: Link, seq) => {
    if (l.left.field === 'localizations') return;
    const media = l.kind === 'relation.morph';
    const owner = media ? `${String(l.right.type)}:${String(l.right.ref)}` : `${String(l.left.type)}:${String(l.left.ref)}`;
    const target = media ? `${String(l.left.type)}:${String(l.left.ref)}` : `${String(l.right.type)}:${String(l.right.ref)}`;
    const pos = Number((media ? l.right.pos : l.left.pos) ?? Infinity);
    owned.set(owner, [...(owned.get(owner) ?? []), { field: String(media ? l.right.field : l.left.field), target, pos, seq }]);
  });
  const linked = (owner: string, field: string): string[] => {
    const list = (owned.get(owner) ?? []).filter((l) => l.field === field).sort((a, b) => a.pos - b.pos || a.seq - b.seq);
    return [...new Set(list.map((l) => documentIdOf.get(l.target)!))];
  };
  const values = (attributes: Attributes, names: readonly string[], data: Data, owner: string): Data => {
    const out: Data = {};
    for (const name of names) {
      const a = attributes[name]!;
      if (a.private) continue;
      if (a.kind === 'scalar') out[name] = data[name] ?? null;
      else if (a.kind === 'media' || (a.kind === 'relation' && a.owner)) {
        const ids = linked(owner, name);
        out[name] = (a.kind === 'media' ? a.multiple : a.toMany) ? ids : (ids[0] ?? null);
      } else if (a.kind === 'component') {
        const one = (c: Data) => values(registry.component(a.component).attributes, registry.component(a.component).attributeNames, c, `${a.component}:${String(c.id)}`);
        out[name] = a.repeatable ? ((data[name] as Data[]) ?? []).map(one) : data[name] ? one(data[name] as Data) : null;
      } else if (a.kind === 'dynamiczone') {
        out[name] = ((data[name] as Data[]) ?? []).map((c) => {
          const uid = c.__component as string;
          return { __component: uid, ...values(registry.component(uid).attributes, registry.component(uid).attributeNames, c, `${uid}:${String(c.id)}`) };
        });
      }
    }
    return out;
  };
  return {
    expected(ct: ContentType, entity: ExportLines['entities'][number]): Data {
      const { data } = entity;
      return {
        documentId: data.documentId,
        ...values(ct.attributes, ct.attributeNames, data, `${ct.uid}:${entity.id}`),
        createdAt: data.createdAt,
        updatedAt: data.updatedAt,
        publishedAt: data.publishedAt,
        ...(ct.localized ? { locale: data.locale } : {}),
      };
    },
  };
}

/** The REST path reading one version of a document, every attribute populated (components and zones one level deeper). */
export function restPath(ct: ContentType, data: Data): string {
  const populate: Data = {};
  for (const name of ct.attributeNames) {
    const a = ct.attributes[name]!;
    if (a.kind === 'media' || (a.kind === 'relation' && a.owner)) populate[name] = true;
    if (a.kind === 'component' || a.kind === 'dynamiczone') populate[name] = { populate: '*' };
  }
  const query = {
    populate,
    ...(ct.draftAndPublish ? { status: data.publishedAt === null ? 'draft' : 'published' } : {}),
    ...(ct.localized ? { locale: data.locale } : {}),
  };
  const base = ct.kind === 'singleType' ? `/api/${ct.singularName}` : `/api/${ct.pluralName}/${String(data.documentId)}`;
  return `${base}?${qs.stringify(query, { encodeValuesOnly: true })}`;
}

/** A REST document in the expectation's terms: relations and media as documentIds, component ids dropped. */
export function normalizeRest(registry: Registry, attributes: Attributes, names: readonly string[], doc: Data, root: boolean): Data {
  const out: Data = {};
  const ref = (v: unknown) => (v === null || v === undefined ? null : (v as Data).documentId);
  for (const name of names) {
    const a = attributes[name]!;
    if (a.private || (a.kind === 'relation' && !a.owner)) continue;
    const v = doc[name];
    if (a.kind === 'scalar') out[name] = v ?? null;
    else if (a.kind === 'media' || a.kind === 'relation') out[name] = Array.isArray(v) ? v.map(ref) : ref(v);
    else if (a.kind === 'component') {
      const c = registry.component(a.component);
      const one = (x: Data) => normalizeRest(registry, c.attributes, c.attributeNames, x, false);
      out[name] = Array.isArray(v) ? (v as Data[]).map(one) : v ? one(v as Data) : null;
    } else {
      out[name] = ((v as Data[]) ?? []).map((x) => {
        const c = registry.component(x.__component as string);
        return { __component: x.__component, ...normalizeRest(registry, c.attributes, c.attributeNames, x, false) };
      });
    }
  }
  if (root) for (const k of ['documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale']) if (k in doc) out[k] = doc[k];
  return out;
}
