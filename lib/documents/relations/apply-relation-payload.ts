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
  /** `options.strict` of the payload (default true): a position naming an unconnected doc is an error. */
  strict?: boolean;
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
    const options = o.options && typeof o.options === 'object' ? (o.options as Record<string, unknown>) : {};
    return {
      set: 'set' in o ? list(o.set) : undefined,
      connect: list(o.connect),
      disconnect: list(o.disconnect),
      ...(options.strict === false ? { strict: false } : {}),
    };
  }
  throw new ValidationError(`Invalid relation payload`);
}

type Position = RelationRef['position'];

/** The documentId a position is relative to (before/after), if any. */
const anchorOf = (p: Position): string | undefined => (p?.before !== undefined ? String(p.before) : p?.after !== undefined ? String(p.after) : undefined);

function insertAt(result: string[], documentId: string, p: Position): string[] {
  const next = result.filter((d) => d !== documentId);
  const anchor = anchorOf(p);
  const at = anchor === undefined ? -1 : next.indexOf(anchor);
  let index = next.length;
  if (p?.start) index = 0;
  else if (at >= 0) index = p?.before !== undefined ? at : at + 1;
  next.splice(index, 0, documentId);
  return next;
}

/**
 * Applies a normalized payload (refs already resolved to documentIds) to the current ordered list of
 * documentIds and returns the new list. Positional connects reorder; connecting a present id moves it. As in
 * Strapi, a connect positioned relative to another item of the same connect comes after it; a position naming a
 * document that is neither connected nor being connected is a 400 unless `strict` is false (then: at the end).
 */
export function applyRelationPayload(
  current: readonly string[],
  payload: { set?: string[]; connect: { documentId: string; position?: Position }[]; disconnect: string[]; strict?: boolean },
): string[] {
  let result = payload.set ? [...new Set(payload.set)] : [...current];
  if (!payload.set) {
    const drop = new Set(payload.disconnect);
    result = result.filter((d) => !drop.has(d));
  }
  let pending = [...payload.connect];
  while (pending.length > 0) {
    const waiting = pending.filter((item) => {
      const anchor = anchorOf(item.position);
      return anchor !== undefined && !result.includes(anchor) && pending.some((o) => o !== item && o.documentId === anchor);
    });
    const ready = pending.filter((item) => !waiting.includes(item));
    if (ready.length === 0) {
      // A cycle of positions: place the rest at the end, in the order given.
      for (const item of pending) result = insertAt(result, item.documentId, undefined);
      break;
    }
    for (const item of ready) {
      const anchor = anchorOf(item.position);
      if (anchor !== undefined && !result.includes(anchor)) {
        if (payload.strict !== false) {
          throw new ValidationError(
            `There was a problem connecting relation with id ${item.documentId} at position ${JSON.stringify(item.position)}. The relation with id ${anchor} needs to be connected first.`,
          );
        }
        result = insertAt(result, item.documentId, undefined);
      } else {
        result = insertAt(result, item.documentId, item.position);
      }
    }
    pending = waiting;
  }
  return result;
}
