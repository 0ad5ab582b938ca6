import type { IdentityCache } from '../../../util/frozen';
import type { Pipeline, Row } from '../../types';
import type { QueryOptions } from '../semantics/mingo-runtime';
import type { MemoryCollection } from '../storage/memory-collection';

/** Variables bound by enclosing `$lookup`s (`let`). */
export type Vars = Readonly<Record<string, unknown>>;

/**
 * Rows out of a stage. `owned`: every row is a fresh object sharing nothing with stored rows, with another row
 * or with anything else (callers may then hand them out without a copy); otherwise rows may be stored rows.
 */
export interface RowSet {
  readonly rows: Row[];
  readonly owned: boolean;
}

/** A compiled stage (or pipeline): never mutates rows it does not own. */
export type StageFn = (rows: readonly Row[], owned: boolean, vars: Vars) => RowSet;

/** A compiled stage of a fast path that may decline a particular input (null: the planner runs it another way). */
export type PartialStage = (rows: readonly Row[], owned: boolean, vars: Vars) => RowSet | null;

/** The compiled plan of one stage object: its fast paths in order, then mingo (see planner). */
export interface StagePlan {
  readonly run: StageFn;
}

/** What compiled stages read: mingo options, the collections joined by `$lookup`, and which fast paths are on. */
export interface StageContext {
  /** mingo's options for the general path (the context of semantics/mingo-context). */
  readonly options: QueryOptions;
  collection(name: string): MemoryCollection | undefined;
  /**
   * Copies a row before a stage changes it: a deep copy, or a shallow one when the caller only reads the result
   * (then "owned" rows are fresh at the top level only).
   */
  copyRow(row: Row): Row;
  /** Copies joined rows that are not owned (deep copies, or a new array of the same rows for a reader). */
  copyRows(rows: readonly Row[]): Row[];
  /** A fresh array of stored rows made by the caller: kept as it is for a reader, deep copies otherwise. */
  adoptRows(rows: Row[]): Row[];
  /** Whether the caller only reads the result (AggregateOptions.readOnly): rows may then be shared. */
  readonly readOnly: boolean;
  /** The read-only context of the same runtime and fast paths (this one when it is read-only). */
  readonly reader: StageContext;
  /** Whether the fast path `name` is on (registry: every path is, unless switched off). */
  uses(name: string): boolean;
  /**
   * What was compiled from frozen stage objects and pipelines with this context, kept for the next pipeline that
   * holds the same objects (the read path freezes the pipelines it keeps per query, see lib/documents/read-documents
   * and the identity contract of lib/util/frozen). A compiled stage depends only on its stage and on the collection
   * and index objects it reads, which live as long as the engine (a rollback rebuilds indexes in place).
   */
  readonly compiled: IdentityCache<object, StagePlan>;
  /** Compiles a sub-pipeline (a `$lookup`'s, the stages of a fast path) with this context: the planner's. */
  compile(stages: Pipeline): StageFn;
}
