/** Strapi's scalar attribute types (stored as plain values in the row). */
export type ScalarType =
  | 'string'
  | 'text'
  | 'richtext'
  | 'blocks'
  | 'email'
  | 'password'
  | 'uid'
  | 'integer'
  | 'biginteger'
  | 'float'
  | 'decimal'
  | 'boolean'
  | 'date'
  | 'time'
  | 'datetime'
  | 'timestamp'
  | 'json'
  | 'enumeration';

export type RelationKind = 'oneToOne' | 'oneToMany' | 'manyToOne' | 'manyToMany' | 'oneWay' | 'manyWay';

interface AttributeBase {
  /** The attribute's name in the schema (and in requests and responses). */
  readonly name: string;
  readonly required: boolean;
  readonly private: boolean;
  /** false when `pluginOptions.i18n.localized === false` on a localized type: the value is shared by all locales. */
  readonly localized: boolean;
  /** true for id, documentId, createdAt, updatedAt, publishedAt, locale: never writable through a body. */
  readonly system: boolean;
  /** The attribute as written in schema.json. */
  readonly raw: Readonly<Record<string, unknown>>;
}

export interface ScalarAttribute extends AttributeBase {
  readonly kind: 'scalar';
  readonly type: ScalarType;
  readonly unique: boolean;
  readonly default?: unknown;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly min?: number;
  readonly max?: number;
  readonly regex?: string;
  readonly enum?: readonly string[];
  readonly targetField?: string;
}

export interface MediaAttribute extends AttributeBase {
  readonly kind: 'media';
  readonly multiple: boolean;
  /** e.g. ['images', 'files']; null when any type is allowed. */
  readonly allowedTypes: readonly string[] | null;
  readonly target: 'plugin::upload.file';
}

export interface RelationAttribute extends AttributeBase {
  readonly kind: 'relation';
  readonly relation: RelationKind;
  readonly target: string;
  readonly toMany: boolean;
  /** true when this side stores the relation (inversedBy or unidirectional). */
  readonly owner: boolean;
  readonly inversedBy?: string;
  readonly mappedBy?: string;
}

export interface ComponentAttribute extends AttributeBase {
  readonly kind: 'component';
  readonly component: string;
  readonly repeatable: boolean;
  readonly min?: number;
  readonly max?: number;
}

export interface DynamicZoneAttribute extends AttributeBase {
  readonly kind: 'dynamiczone';
  readonly components: readonly string[];
  readonly min?: number;
  readonly max?: number;
}

export type Attribute = ScalarAttribute | MediaAttribute | RelationAttribute | ComponentAttribute | DynamicZoneAttribute;

export type MorphRelationKind = 'morphToOne' | 'morphToMany' | 'morphOne' | 'morphMany';

/**
 * A polymorphic relation of a schema: loaded, but not served (docs/rest-api.md, "Morph relations"). It is not in
 * `attributes`, so no read, write or document answers it; a request naming it is a 400 saying why.
 */
export interface MorphRelationAttribute {
  readonly name: string;
  readonly kind: 'morph';
  readonly relation: MorphRelationKind;
  /** The target of `morphOne` / `morphMany`; `morphToOne` / `morphToMany` point to any type. */
  readonly target?: string;
  /** The target's `morphToOne` / `morphToMany` attribute (`morphOne` / `morphMany`). */
  readonly morphBy?: string;
  readonly raw: Readonly<Record<string, unknown>>;
}

/** What a query can address: attributes plus the system fields. */
export type Attributes = Readonly<Record<string, Attribute>>;

export interface ContentType {
  readonly uid: string;
  readonly kind: 'collectionType' | 'singleType';
  readonly singularName: string;
  readonly pluralName: string;
  readonly collectionName: string;
  readonly draftAndPublish: boolean;
  readonly localized: boolean;
  /** Schema attributes followed by the system fields (id, documentId, createdAt, updatedAt, publishedAt, locale). */
  readonly attributes: Attributes;
  /** Schema attribute names in declaration order (no system fields). */
  readonly attributeNames: readonly string[];
  /** true for built-in types (upload files) that have no Content API routes. */
  readonly internal: boolean;
  /** The morph relations of the schema, by name (not served: see MorphRelationAttribute). */
  readonly morphRelations: Readonly<Record<string, MorphRelationAttribute>>;
}

export interface Component {
  readonly uid: string;
  readonly category: string;
  readonly collectionName: string;
  readonly attributes: Attributes;
  readonly attributeNames: readonly string[];
  /** The morph relations of the schema, by name (not served: see MorphRelationAttribute). */
  readonly morphRelations: Readonly<Record<string, MorphRelationAttribute>>;
}

export interface I18nSettings {
  /** The configured locale codes, in the order given. */
  readonly locales: readonly string[];
  readonly defaultLocale: string;
  /** Display name per locale code (`GET /api/i18n/locales`). */
  readonly names: Readonly<Record<string, string>>;
}

/**
 * The `i18n` option: locales as codes (`'fr'`) or with a display name (`{ code: 'fr', name: 'Français' }`), and
 * the default locale (default: the first).
 */
export interface I18nOptions {
  readonly locales?: readonly (string | { readonly code: string; readonly name?: string })[];
  readonly defaultLocale?: string;
}

/** The normalized, immutable model every stage reads. */
export interface Registry {
  readonly contentTypes: ReadonlyMap<string, ContentType>;
  readonly components: ReadonlyMap<string, Component>;
  readonly i18n: I18nSettings;
  contentType(uid: string): ContentType;
  component(uid: string): Component;
  /** The type reached at /api/:apiId (pluralName of collection types, singularName of single types). */
  byRoute(apiId: string): ContentType | undefined;
  /** Relation attributes of other types (and of components) that store relations to `uid`. */
  incomingRelations(uid: string): readonly IncomingRelation[];
  /**
   * The morph relation `key` of the type or component whose `attributes` these are (the registry's own object),
   * for the 400 that says why a request cannot name it; undefined otherwise.
   */
  morphRelation(attributes: Attributes, key: string): MorphRelationAttribute | undefined;
}

export interface IncomingRelation {
  readonly sourceUid: string;
  readonly attribute: RelationAttribute;
}

export const UPLOAD_FILE_UID = 'plugin::upload.file';
export const SYSTEM_FIELDS = ['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale'] as const;
