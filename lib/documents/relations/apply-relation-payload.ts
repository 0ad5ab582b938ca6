import { ValidationError } from '../../errors';

/** One relation reference as a client may send it. */
export interface RelationRef {
  documentId?: string;
  id?: number;
  locale?: string | null;
  position?: { before?: string; after?: string; start?: boolean; end?: boolean };
}

/** The payload normalized into Strapi's longhand: `set` wins over connect/disconnect. */
export interface RelationPayload {
  set?: RelationRef[];
  connect: RelationRef[];
  disconnect: RelationRef[];
}

function toRef(item: unknown): RelationRef {
  if (typeof item === 'string') return { documentId: item };
  if (typeof item === 'number' && Number.isInteger(item)) return { id: item };
  if (item && typeof item === 'object' && !Array.isArray(item)) {
    const o = item as Record<string, unknown>;
    const ref: RelationRef = {};
    if (typeof o.documentId === 'string') ref.documentId = o.documentId;
    else if (typeof o.id === 'number' || (typeof o.id === 'string' && /^\d+$/.test(o.id))) ref.id = Number(o.id);
    else if (typeof o.id === 'string') ref.documentId = o.id;
    if (typeof o.locale === 'string') ref.locale = o.locale;
    if (o.position && typeof o.position === 'object') ref.position = o.position as RelationRef['position'];
    if (ref.documentId !== undefined || ref.id !== undefined) return ref;
  }
  throw new ValidationError(`Document with id "${typeof item === 'string' ? item : JSON.stringify(item)}", locale "null" not found`);
}

const list = (v: unknown): RelationRef[] => (v === undefined || v === null ? [] : (Array.isArray(v) ? v : [v]).map(toRef));

/** Normalizes every payload form of BEHAVIOURS "Relations on write" into connect/disconnect/set. */
export function normalizeRelationPayload(value: unknown): RelationPayload {
  if (value === null) return { set: [], connect: [], disconnect: [] };
  if (typeof value === 'string' || typeof value === 'number' || Array.isArray(value)) {
    return { set: list(value), connect: [], disconnect: [] };
  }
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const longhand = 'connect' in o || 'disconnect' in o || 'set' in o;
    if (!longhand) return { set: [toRef(o)], connect: [], disconnect: [] };
    return { set: 'set' in o ? list(o.set) : undefined, connect: list(o.connect), disconnect: list(o.disconnect) };
  }
  throw new ValidationError(`Invalid relation payload`);
}

/**
 * Applies a normalized payload (refs already resolved to documentIds) to the current ordered list of
 * documentIds and returns the new list. Positional connects reorder; connecting a present id moves it.
 */
export function applyRelationPayload(current: readonly string[], payload: { set?: string[]; connect: { documentId: string; position?: RelationRef['position'] }[]; disconnect: string[] }): string[] {
  let result = payload.set ? [...new Set(payload.set)] : [...current];
  if (!payload.set) {
    const drop = new Set(payload.disconnect);
    result = result.filter((d) => !drop.has(d));
  }
  for (const item of payload.connect) {
    result = result.filter((d) => d !== item.documentId);
    const p = item.position;
    let index = result.length;
    if (p?.start) index = 0;
    else if (p?.before !== undefined) index = Math.max(0, result.indexOf(p.before));
    else if (p?.after !== undefined) {
      const at = result.indexOf(p.after);
      index = at < 0 ? result.length : at + 1;
    }
    result.splice(index, 0, item.documentId);
  }
  return result;
}
