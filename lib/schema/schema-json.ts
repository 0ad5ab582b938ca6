/**
 * The shapes of Strapi's `schema.json` files as the options take them. Loose where a JSON import widens
 * (`kind: string`, an attribute's `type: string`: `import article from './schema.json'` must type-check),
 * strict about the structure, so an obvious mistake (a schema instead of an array, a missing `info` or
 * `attributes`, components as an array) fails to compile. Start-up validation checks the values.
 */

/** One attribute of a schema: `{ type: 'string', required: true }`, `{ type: 'relation', relation: 'manyToOne', target: 'api::author.author' }`. */
export interface AttributeSchema {
  readonly type: string;
  readonly [option: string]: unknown;
}

/**
 * A content type's `schema.json`.
 *
 * @example
 * const article: ContentTypeSchema = {
 *   kind: 'collectionType',
 *   collectionName: 'articles',
 *   info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
 *   attributes: { title: { type: 'string', required: true } },
 * };
 */
export interface ContentTypeSchema {
  /** `'collectionType'` or `'singleType'`. */
  readonly kind: string;
  readonly collectionName?: string;
  readonly info: { readonly singularName: string; readonly pluralName: string; readonly displayName?: string; readonly description?: string };
  readonly options?: { readonly draftAndPublish?: boolean; readonly [option: string]: unknown };
  readonly pluginOptions?: { readonly [plugin: string]: unknown };
  readonly attributes: Readonly<Record<string, AttributeSchema>>;
  /** Set only by types that name their own uid (`plugin::...`); derived from `singularName` otherwise. */
  readonly uid?: string;
}

/**
 * A component's definition (components/<category>/<name>.json), keyed by its uid (`'shared.seo'`) in the options.
 *
 * @example
 * const components: Record<string, ComponentSchema> = { 'shared.seo': { attributes: { metaTitle: { type: 'string' } } } };
 */
export interface ComponentSchema {
  readonly collectionName?: string;
  readonly info?: { readonly displayName?: string; readonly icon?: string; readonly description?: string };
  readonly options?: { readonly [option: string]: unknown };
  readonly attributes: Readonly<Record<string, AttributeSchema>>;
}
