import { ApplicationError, ValidationError } from '../errors';
import type { Engine } from '../engine';
import type { Attributes, MediaAttribute, Registry } from '../schema';
import { resolveOwningValue } from './relations/resolve-relations';

type Row = Record<string, unknown>;

/** One media reference of a write: the file id and the attribute (name, allowed types) it is written to. */
export interface MediaReference {
  id: number;
  attribute: string;
  allowedTypes: readonly string[] | null;
}

/** Collects, while data is prepared, the file references that must exist and fit their attribute. */
export interface PrepareState {
  media: MediaReference[];
}

function mediaId(v: unknown): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  if (v && typeof v === 'object' && 'id' in v) return mediaId((v as { id: unknown }).id);
  throw new ValidationError('Invalid media value');
}

/** Normalizes a media value to the stored file id(s) and records the references in `state`. */
export function prepareMedia(value: unknown, attribute: MediaAttribute, state: PrepareState): number | number[] | null {
  if (value === null || value === undefined) return attribute.multiple ? [] : null;
  const record = (id: number): number => {
    state.media.push({ id, attribute: attribute.name, allowedTypes: attribute.allowedTypes });
    return id;
  };
  if (attribute.multiple) return (Array.isArray(value) ? value : [value]).map((v) => record(mediaId(v)));
  return record(mediaId(Array.isArray(value) ? value[0] : value));
}

/** The components currently stored in an attribute, by id. */
function ownedComponents(value: unknown): Map<number, Row> {
  const list = (Array.isArray(value) ? value : value ? [value] : []) as Row[];
  return new Map(list.filter((c) => typeof c?.id === 'number').map((c) => [c.id as number, c]));
}

/**
 * Prepares the component, dynamic zone and media values of `data` for storage: new components get ids from
 * their counter, components sent with an id must be owned by `current` (Strapi's rule), media become file ids.
 */
export async function prepareEmbedded(
  engine: Engine,
  registry: Registry,
  attributes: Attributes,
  data: Row,
  current: Row | null,
  state: PrepareState,
): Promise<Row> {
  const out: Row = { ...data };
  for (const [name, value] of Object.entries(data)) {
    const attribute = attributes[name];
    if (!attribute) continue;
    if (attribute.kind === 'media') {
      out[name] = prepareMedia(value, attribute, state);
    } else if (attribute.kind === 'component') {
      const owned = ownedComponents(current?.[name]);
      const items = value === null || value === undefined ? [] : attribute.repeatable ? (value as Row[]) : [value as Row];
      const prepared: Row[] = [];
      for (const item of items) {
        prepared.push(await prepareComponent(engine, registry, attribute.component, item, owned, name, state));
      }
      out[name] = attribute.repeatable ? prepared : (prepared[0] ?? null);
    } else if (attribute.kind === 'dynamiczone') {
      const owned = ownedComponents(current?.[name]);
      const prepared: Row[] = [];
      for (const item of (value as Row[] | null) ?? []) {
        const uid = String(item.__component);
        prepared.push({ ...(await prepareComponent(engine, registry, uid, item, owned, name, state)), __component: uid });
      }
      out[name] = prepared;
    }
  }
  return out;
}

async function prepareComponent(
  engine: Engine,
  registry: Registry,
  uid: string,
  item: Row,
  owned: ReadonlyMap<number, Row>,
  path: string,
  state: PrepareState,
): Promise<Row> {
  const component = registry.component(uid);
  let id: number;
  let stored: Row | undefined;
  if (item.id !== undefined && item.id !== null) {
    id = Number(item.id);
    stored = owned.get(id);
    if (!stored) throw new ApplicationError(`Some of the provided components in ${path} are not related to the entity`);
  } else {
    id = await engine.nextId(component.collectionName);
  }
  const { id: _ignored, __component: _c, ...rest } = item;
  const filled: Row = {};
  for (const name of component.attributeNames) {
    const a = component.attributes[name]!;
    if (a.kind === 'relation') {
      // Relations inside components are stored like owning relations: documentIds, targets checked.
      if (name in rest) filled[name] = await resolveOwningValue(engine, registry, a, stored?.[name], rest[name]);
      else filled[name] = stored?.[name] ?? (a.toMany ? [] : null);
    } else if (name in rest) filled[name] = rest[name];
    else if (a.kind === 'scalar') filled[name] = a.default ?? null;
    else if (a.kind === 'component') filled[name] = a.repeatable ? [] : null;
    else if (a.kind === 'media') filled[name] = a.multiple ? [] : null;
  }
  const nested = await prepareEmbedded(engine, registry, component.attributes, filled, null, state);
  return { id, ...nested };
}

/** Gives every embedded component of `row` a fresh id (a published copy owns its own component rows). */
export async function reidComponents(engine: Engine, registry: Registry, attributes: Attributes, row: Row): Promise<Row> {
  const out: Row = { ...row };
  for (const [name, attribute] of Object.entries(attributes)) {
    if (attribute.kind !== 'component' && attribute.kind !== 'dynamiczone') continue;
    const value = row[name];
    const items = Array.isArray(value) ? value : value ? [value] : [];
    const next: Row[] = [];
    for (const item of items as Row[]) {
      const uid = attribute.kind === 'component' ? attribute.component : String(item.__component);
      const component = registry.component(uid);
      const inner = await reidComponents(engine, registry, component.attributes, item);
      next.push({ ...inner, id: await engine.nextId(component.collectionName) });
    }
    out[name] = attribute.kind === 'component' && !attribute.repeatable ? (next[0] ?? null) : next;
  }
  return out;
}
