// The populate a form needs: every relation and media, every component and dynamic zone, nested ones included
// (Strapi 5's object form: `populate[seo][populate][image]=true`, `populate[blocks][on][shared.quote]=...`).
import type { Attributes, ModelIndex } from './model';

type Populate = Record<string, unknown>;

/** The populate object of `attributes` (true where nothing below needs populating), depth-bounded against cycles. */
export function populateFor(model: ModelIndex, attributes: Attributes, depth = 0): Populate {
  const out: Populate = {};
  if (depth > 6) return out;
  for (const [name, attribute] of Object.entries(attributes)) {
    if (attribute.type === 'relation' || attribute.type === 'media') out[name] = true;
    else if (attribute.type === 'component' && attribute.component) {
      out[name] = componentPopulate(model, attribute.component, depth);
    } else if (attribute.type === 'dynamiczone') {
      const on: Populate = {};
      for (const uid of attribute.components ?? []) on[uid] = componentPopulate(model, uid, depth);
      out[name] = { on };
    }
  }
  return out;
}

function componentPopulate(model: ModelIndex, uid: string, depth: number): unknown {
  const component = model.components.get(uid);
  const inner = component ? populateFor(model, component.attributes, depth + 1) : {};
  return Object.keys(inner).length ? { populate: inner } : true;
}

/** The populate of a list: the relations and media its columns show, one level. */
export function listPopulate(attributes: Attributes): Populate {
  const out: Populate = {};
  for (const [name, attribute] of Object.entries(attributes)) {
    if (attribute.type === 'relation' || attribute.type === 'media') out[name] = true;
  }
  return out;
}
