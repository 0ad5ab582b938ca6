import { MemoBudget } from '../util/bounded-memo';

/**
 * The bytes the JSON writers' memos may hold together, in the whole process: the bytes of stored rows as each
 * writer wrote them (row-json `byIdentity`) and of stored objects (json-value `writeStoredJson`), kept by the
 * identity of what the engine hands out. Requests choose which rows are read and with which selection, so they
 * share one byte budget (lib/util/bounded-memo: two generations, what is not used for two turns is dropped).
 */
export const FORMAT_MEMO_BYTES = 16 * 1024 * 1024;

/** The budget of the writers' memos (see {@link FORMAT_MEMO_BYTES}). */
export const formatMemos = new MemoBudget(FORMAT_MEMO_BYTES);

/** The fixed bytes of an array or of a Uint8Array's objects (its ArrayBuffer included), for the estimates. */
export const ARRAY_BYTES = 160;

/** The bytes kept bytes are counted for: their backing store and their objects. */
export const keptBytes = (bytes: Uint8Array): number => bytes.byteLength + ARRAY_BYTES;
