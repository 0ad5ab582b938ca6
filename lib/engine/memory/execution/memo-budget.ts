import { MemoBudget } from '../../../util/bounded-memo';

/**
 * The bytes the memory engine's read memos may hold together, all engines of the process together: what it keeps
 * per stable row array (sort plans: sort-rows, probings: relation-filter-elements, relation-filter results) and
 * per stored row (numbered copies: fast-paths/document-number). Each is kept by object identity and dropped with
 * its key, but requests choose the keys (a sort, a page's numbers, a relation filter), so they share one byte
 * budget (lib/util/bounded-memo: two generations, what is not used for two turns is dropped).
 */
export const ENGINE_MEMO_BYTES = 32 * 1024 * 1024;

/** The budget of the memory engine's read memos (see {@link ENGINE_MEMO_BYTES}). */
export const engineMemos = new MemoBudget(ENGINE_MEMO_BYTES);

/** The bytes a row array's slots take (a pointer each), and an object's fixed part: for the memos' estimates. */
export const SLOT_BYTES = 8;
export const OBJECT_BYTES = 64;
