/** A row of the export (an entity of a content type of the model): what links to it resolve to. */
export interface SourceRow {
  readonly documentId: string;
  readonly locale: string | null;
  readonly status: 'draft' | 'published';
}

/** A link of the export seen from its owner (a row or a component): the field, the target, its position. */
export interface OwnedLink {
  readonly field: string;
  readonly type: string;
  readonly ref: number;
  readonly pos: number | null;
  /** A relation's position on the target's side (Strapi's inverse order column), when the export has one. */
  readonly inversePos?: number | null;
  /** The link's order in the export, to break ties between equal positions. */
  readonly seq: number;
}

/**
 * What the first pass over an export learns, and the second writes from: the rows of the model's types (by
 * type and source id), the component ids, the links by owner, the assets, what is kept aside. Holds keys and
 * small records only, never entity data or file bytes.
 */
export interface ImportPlan {
  readonly rows: Map<string, Map<number, SourceRow>>;
  readonly components: Map<string, Set<number>>;
  /** By owner key (`ownerKey(type, ref)`), by field. */
  readonly links: Map<string, Map<string, OwnedLink[]>>;
  /** `hash + ext` of every stored object the file rows name (originals and formats) -> source file id and format. */
  readonly objects: Map<string, StoredObject>;
  /** The names of the files under assets/uploads. */
  readonly assets: Set<string>;
  /** Counts of what the export holds outside the model and is kept aside for a later export (by type or stage). */
  readonly kept: Map<string, number>;
  readonly problems: string[];
  /** The entities (owner keys) that had a problem: their links are not reported again. */
  readonly failed: Set<string>;
  /** The rows left out on purpose (`unconfiguredLocales: 'skip'`) and their components: their links go too. */
  readonly left: Set<string>;
  /** Links skipped on purpose (Strapi's `localizations` rows, file folders), by reason. */
  readonly skipped: Map<string, number>;
  /** users-permissions (`auth.users`): the action of each permission entity, by source id. */
  readonly permissions: Map<number, string>;
  /** users-permissions: the links from a permission to its role, as the export gives them. */
  readonly grantLinks: GrantLink[];
  /** users-permissions: the stored `permissions` list of each role, by role source id (built by the check). */
  readonly roleGrants: Map<number, string[]>;
  /** users-permissions: the `type` of every role of the export (the stored roles of those types are replaced). */
  readonly roleTypes: Set<string>;
  /** Media folders (kept aside as they came): the ids of the folder entities of the export. */
  readonly folders: Set<number>;
  /** Media folders: each file's `folder` link (the folder's id, the file's position there), by file source id. */
  readonly fileFolders: Map<number, { readonly id: number; readonly pos: number | null }>;
  linkCount: number;
  /** The bytes of the export's JSON lines (what the write pass stores, about): whether it fits one transaction. */
  lineBytes: number;
}

/** A link from a permission entity to its role (`permission.role`, `pos` the order on the role's side). */
export interface GrantLink {
  readonly permission: number;
  readonly role: number;
  readonly pos: number | null;
  readonly seq: number;
}

/** One stored object of a file row (its original or a format), as the export names it. */
export interface StoredObject {
  readonly fileId: number;
  readonly format: string | null;
  readonly hash: string;
  readonly ext: string;
  readonly mime: string;
  readonly url: string;
  /** The row's provider (originals only). */
  readonly provider: string | null;
}

export const ownerKey = (type: string, ref: number): string => `${type}\u0000${ref}`;

export function createPlan(): ImportPlan {
  return {
    rows: new Map(), components: new Map(), links: new Map(), objects: new Map(), assets: new Set(), kept: new Map(), problems: [], failed: new Set(), left: new Set(), skipped: new Map(),
    permissions: new Map(), grantLinks: [], roleGrants: new Map(), roleTypes: new Set(), folders: new Set(), fileFolders: new Map(), linkCount: 0, lineBytes: 0,
  };
}

/** The most problems collected before the first pass stops reading. */
export const MAX_PROBLEMS = 50;

/** The longest problem kept: the names and values it quotes come from the export, which may be hostile. */
const MAX_PROBLEM_LENGTH = 500;

export function addProblem(plan: ImportPlan, problem: string): void {
  if (plan.problems.length < MAX_PROBLEMS) plan.problems.push(problem.length > MAX_PROBLEM_LENGTH ? `${problem.slice(0, MAX_PROBLEM_LENGTH - 3)}...` : problem);
}

export function increment(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}
