// The model the admin renders, as the router's model endpoint describes it (GET <apiUrl>/content-router/model,
// see docs/admin.md). Nothing here knows a particular model: every view is derived from these declarations.
// The permissions and the caller are the server's own types (type-only imports: nothing of lib/ is bundled).
import type { ContentTypePermissions as ServedPermissions, ModelCaller } from '../../lib/http/describe-model';

export interface Attribute {
  type: string;
  required?: boolean;
  private?: boolean;
  unique?: boolean;
  relation?: string;
  target?: string;
  mappedBy?: string;
  inversedBy?: string;
  component?: string;
  repeatable?: boolean;
  components?: string[];
  allowedTypes?: string[];
  multiple?: boolean;
  enum?: string[];
  targetField?: string;
  min?: number | string;
  max?: number | string;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  customField?: string;
  [key: string]: unknown;
}

export type Attributes = Record<string, Attribute>;

/**
 * What the caller may do with one content type, as the server declares it. `readDrafts` stays optional here: a
 * server older than that field omits it, and `ModelIndex.readsDrafts` then assumes it with `find`/`findOne`.
 */
export type ContentTypePermissions = Omit<ServedPermissions, 'readDrafts'> & Partial<Pick<ServedPermissions, 'readDrafts'>>;

export interface ContentType {
  uid: string;
  kind: 'collectionType' | 'singleType';
  singularName: string;
  pluralName: string;
  displayName: string;
  route: string;
  draftAndPublish: boolean;
  localized: boolean;
  attributes: Attributes;
  permissions: ContentTypePermissions;
}

export interface Component {
  uid: string;
  category: string;
  displayName: string;
  attributes: Attributes;
}

export interface Locale {
  code: string;
  name: string;
  isDefault: boolean;
}

export interface MediaPermissions {
  find: boolean;
  findOne: boolean;
  upload: boolean;
  update: boolean;
  destroy: boolean;
}

export interface Model {
  contentTypes: ContentType[];
  components: Component[];
  locales: Locale[];
  media: MediaPermissions;
  /** Who asked: a user, an API token, the host's own caller (its `auth.resolve` subject), or nobody (Public). */
  caller: ModelCaller;
}

/** The resource name of the media library (`/upload/files`). */
export const FILES = 'files';

/** Attribute types shown as text and searched with `$containsi`. */
export const TEXT_TYPES = new Set(['string', 'text', 'email', 'uid', 'richtext']);
/** Attribute types a list can show as a column and sort on. */
export const SCALAR_TYPES = new Set([
  ...TEXT_TYPES,
  'integer', 'biginteger', 'decimal', 'float', 'date', 'time', 'datetime', 'timestamp', 'boolean', 'enumeration',
]);

/** Relations that hold one document on this side (everything else holds a list). */
const TO_ONE = new Set(['oneToOne', 'manyToOne', 'oneWay', 'morphToOne']);

export const isToOne = (attribute: Attribute): boolean => TO_ONE.has(attribute.relation ?? '');
export const isMorph = (attribute: Attribute): boolean => (attribute.relation ?? '').startsWith('morph');

/** The index of a model, by REST route and uid. */
export class ModelIndex {
  readonly byRoute = new Map<string, ContentType>();
  readonly byUid = new Map<string, ContentType>();
  readonly components = new Map<string, Component>();

  constructor(readonly model: Model) {
    for (const ct of model.contentTypes) {
      this.byRoute.set(ct.route, ct);
      this.byUid.set(ct.uid, ct);
    }
    for (const c of model.components) this.components.set(c.uid, c);
  }

  /** The attribute a document of `ct` is shown by: its first required string, else its first string, else its id. */
  mainField(ct: ContentType): string {
    const entries = Object.entries(ct.attributes).filter(([, a]) => a.type === 'string' && !a.private);
    return (entries.find(([, a]) => a.required) ?? entries[0])?.[0] ?? 'documentId';
  }

  /** Whether the caller reads the drafts of `ct` (the admin edits drafts, as Strapi's own admin does). */
  readsDrafts(ct: ContentType): boolean {
    return ct.draftAndPublish && (ct.permissions.readDrafts ?? (ct.permissions.find || ct.permissions.findOne));
  }

  get defaultLocale(): string | undefined {
    return this.model.locales.find((l) => l.isDefault)?.code ?? this.model.locales[0]?.code;
  }
}
