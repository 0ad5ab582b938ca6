import type { Attributes, ContentType } from '../schema';
import type { ParseScope } from './parse-scope';
import type { LocalizationsAttribute, PopulateMap, PopulateNode } from './types';

/** What a populate applies to: the attributes of a content type or component (and the type, for `localizations`). */
export interface PopulateTarget {
  readonly attributes: Attributes;
  readonly attributeNames: readonly string[];
  /** Set for content types: `localizations` exists on localized ones. */
  readonly contentType?: ContentType;
}

/** A content type as a populate target. */
export function contentTypeTarget(contentType: ContentType): PopulateTarget {
  return { attributes: contentType.attributes, attributeNames: contentType.attributeNames, contentType };
}

/** The pseudo attribute `localizations` of a localized content type. */
export function localizationsAttribute(contentType: ContentType): LocalizationsAttribute {
  return { kind: 'localizations', name: 'localizations', target: contentType.uid };
}

/** A node populating `attribute` one level deep: every scalar field, nothing nested. */
export function defaultNode(attribute: PopulateNode['attribute']): PopulateNode {
  return { attribute, fields: null, sort: [], populate: {} };
}

/**
 * `populate=*`: every relation the caller can `find`, every media, component and dynamic zone one level deep,
 * plus `localizations` on localized types. Components come with their first-level scalar fields only.
 */
export function populateStar(scope: ParseScope, target: PopulateTarget): PopulateMap {
  const out: Record<string, PopulateNode> = {};
  for (const name of target.attributeNames) {
    const attribute = target.attributes[name];
    if (!attribute || attribute.private || attribute.system) continue;
    if (attribute.kind === 'scalar') continue;
    if (attribute.kind === 'relation' && !scope.context.canFind(attribute.target)) continue;
    out[name] = defaultNode(attribute);
  }
  const ct = target.contentType;
  if (ct?.localized && scope.context.canFind(ct.uid)) out.localizations = defaultNode(localizationsAttribute(ct));
  return out;
}
