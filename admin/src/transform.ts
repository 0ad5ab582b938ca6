// Documents as the Content API answers them <-> form values <-> the body of a write, by the model:
// - relations: the form holds documentIds (one, or an ordered list); a write sends the to-one as the documentId
//   (or null) and the to-many as `{ set: [...] }` in the chosen order, as Strapi 5's REST API takes them;
// - media: the form holds the file objects (to show them); a write sends their ids;
// - components and dynamic zones: recursively, without their ids (a write replaces them, as Strapi's does);
// - password: sent only when typed; what the model does not declare (id, timestamps, locale...) is not sent.
import { isMorph, isToOne, type Attribute, type Attributes, type ModelIndex } from './model';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A document as the form edits it. */
export function toForm(model: ModelIndex, attributes: Attributes, doc: Json): Json {
  const out: Json = { ...doc };
  for (const [name, attribute] of Object.entries(attributes)) {
    if (!(name in doc)) continue;
    out[name] = valueToForm(model, attribute, doc[name]);
  }
  return out;
}

function valueToForm(model: ModelIndex, attribute: Attribute, value: unknown): unknown {
  switch (attribute.type) {
    case 'relation': {
      if (isMorph(attribute)) return value;
      const idOf = (v: unknown) => (isObject(v) ? v.documentId : v);
      if (isToOne(attribute)) return value == null ? null : idOf(value);
      return Array.isArray(value) ? value.map(idOf) : [];
    }
    case 'component': {
      const component = model.components.get(attribute.component ?? '');
      if (!component) return value;
      if (attribute.repeatable) return Array.isArray(value) ? value.map((v) => toForm(model, component.attributes, v as Json)) : [];
      return isObject(value) ? toForm(model, component.attributes, value) : value;
    }
    case 'dynamiczone':
      return Array.isArray(value) ? value.map((v) => dzToForm(model, v)) : [];
    default:
      return value;
  }
}

function dzToForm(model: ModelIndex, entry: unknown): unknown {
  if (!isObject(entry)) return entry;
  const component = model.components.get(String(entry.__component));
  return component ? toForm(model, component.attributes, entry) : entry;
}

/** Whether a form value holds nothing typed (null, '', [], or an object of such). */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isObject(value)) return Object.entries(value).every(([key, v]) => key === 'id' || isEmpty(v));
  return false;
}

/** The `data` of a write from form values: only the declared attributes, each in the form the API takes. */
export function toBody(model: ModelIndex, attributes: Attributes, values: Json): Json {
  const out: Json = {};
  for (const [name, attribute] of Object.entries(attributes)) {
    if (!(name in values)) continue;
    const value = values[name];
    if (attribute.type === 'password' && (value == null || value === '')) continue;
    if (attribute.type === 'relation' && isMorph(attribute)) continue;
    out[name] = valueToBody(model, attribute, value);
  }
  return out;
}

function valueToBody(model: ModelIndex, attribute: Attribute, value: unknown): unknown {
  switch (attribute.type) {
    case 'relation':
      if (isToOne(attribute)) return value == null || value === '' ? null : value;
      return { set: Array.isArray(value) ? value.filter((v) => v != null && v !== '') : [] };
    case 'media': {
      const idOf = (v: unknown) => (isObject(v) ? v.id : v);
      if (attribute.multiple) return Array.isArray(value) ? value.map(idOf) : [];
      return value == null ? null : idOf(value);
    }
    case 'component': {
      const component = model.components.get(attribute.component ?? '');
      if (!component) return value;
      if (attribute.repeatable) return Array.isArray(value) ? value.map((v) => toBody(model, component.attributes, (v ?? {}) as Json)) : [];
      // The form shows a single component's inputs even when it is absent: left all empty, it stays absent.
      return isObject(value) && !isEmpty(value) ? toBody(model, component.attributes, value) : null;
    }
    case 'dynamiczone':
      return Array.isArray(value)
        ? value.filter(isObject).map((entry) => {
            const component = model.components.get(String(entry.__component));
            return { __component: entry.__component, ...(component ? toBody(model, component.attributes, entry) : {}) };
          })
        : [];
    case 'integer':
    case 'decimal':
    case 'float':
      return value === '' || value === undefined ? null : value;
    case 'biginteger':
    case 'date':
    case 'time':
    case 'datetime':
    case 'enumeration':
    case 'email':
      return value === '' || value === undefined ? null : value;
    default:
      return value === undefined ? null : value;
  }
}
