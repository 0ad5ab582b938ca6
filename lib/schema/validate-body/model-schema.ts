import type { Attributes, ComponentAttribute, DynamicZoneAttribute, Registry } from '../types';
import { ANNOTATION, type Annotation, type JsonSchema, type Variant, variantKey } from './annotation';
import { ownAttribute } from './model-lookup';
import { scalarSchema } from './scalar-schema';

/** The ajv `$id` of a component's schema for a variant (each is compiled once per registry and reused). */
export const componentSchemaId = (uid: string, v: Variant): string => `component:${uid}:${variantKey(v)}`;

const annotate = (schema: JsonSchema, a: Annotation): JsonSchema => ({ ...schema, [ANNOTATION]: a });
const isInt = (n: number | undefined): n is number => n !== undefined && Number.isInteger(n);
const ref = (uid: string, v: Variant): JsonSchema => ({ $ref: componentSchemaId(uid, v) });

/** Strapi's `addMinMax` for repeatables and zones: min only when required or non-empty; none in drafts. */
function addMinMax(s: JsonSchema, attr: ComponentAttribute | DynamicZoneAttribute, v: Variant): JsonSchema {
  if (v.draft) return s;
  if (isInt(attr.max)) s.maxItems = attr.max;
  if (isInt(attr.min)) {
    if (attr.required) s.minItems = attr.min;
    else s.allOf = [{ if: { minItems: 1 }, then: { minItems: attr.min } }];
  }
  return s;
}

/** Repeatables and zones are never null (Strapi: notNil on create, notNull on update); `[]` by default. */
function listSchema(attr: ComponentAttribute | DynamicZoneAttribute, v: Variant, items: JsonSchema): JsonSchema {
  const s: JsonSchema = annotate({ type: 'array', items }, { type: 'array' });
  if (v.action === 'create' && !attr.required) s.default = [];
  return addMinMax(s, attr, v);
}

function componentSchema(attr: ComponentAttribute, v: Variant): JsonSchema {
  if (attr.repeatable) {
    return listSchema(attr, v, annotate({ type: 'object', if: { type: 'object' }, then: ref(attr.component, v) }, { type: 'object' }));
  }
  const nullable = !(attr.required && !v.draft);
  return annotate(
    { type: nullable ? ['object', 'null'] : 'object', if: { type: 'object' }, then: ref(attr.component, v) },
    { type: 'object' },
  );
}

function zoneSchema(registry: Registry, attr: DynamicZoneAttribute, v: Variant): JsonSchema {
  // Strapi lists every registered component in the message (in this order) for an unknown one.
  const all = [...registry.components.keys()].sort().reverse();
  const hasComponent = (c: JsonSchema): JsonSchema => ({ properties: { __component: c }, required: ['__component'] });
  const item: JsonSchema = {
    type: 'object',
    required: ['__component'],
    properties: {
      __component: annotate({ type: 'string', enum: all }, { type: 'string', kind: 'oneOf', text: all.join(', ') }),
    },
    allOf: [
      {
        if: hasComponent({ enum: all }),
        then: hasComponent(annotate({ enum: [...attr.components] }, { kind: 'oneOf', text: attr.components.join(', ') })),
      },
      ...attr.components.map((uid) => ({ if: hasComponent({ const: uid }), then: ref(uid, v) })),
    ],
  };
  return listSchema(attr, v, annotate(item, { type: 'object' }));
}

/**
 * The JSON Schema of a content type's or component's attributes for a variant. Keys were checked before
 * (check-keys.ts), so unknown properties are not looked at here; relations and media only had their shape
 * checked and are left alone.
 */
export function modelSchema(registry: Registry, attributes: Attributes, names: readonly string[], v: Variant): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const name of names) {
    const attr = ownAttribute(attributes, name);
    if (!attr) continue;
    let s: JsonSchema;
    if (attr.kind === 'scalar') s = scalarSchema(attr, v);
    else if (attr.kind === 'component') s = componentSchema(attr, v);
    else if (attr.kind === 'dynamiczone') s = zoneSchema(registry, attr, v);
    else continue;
    properties[name] = s;
    const listRequired = (attr.kind === 'dynamiczone' || (attr.kind === 'component' && attr.repeatable)) && attr.required;
    const enforced = attr.required && !v.draft;
    if (v.action === 'create' && (listRequired || (enforced && attr.kind !== 'dynamiczone'))) required.push(name);
  }
  return annotate({ type: 'object', properties, required }, { type: 'object' });
}
