import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Captures, CorpusCase, ReplayRecord, ReplaySide } from './types';

/** The repo's copy of the conformance data. */
export const CONFORMANCE_DIR = join(__dirname, '..', '..', 'conformance');
export const CORPUS_FILE = join(CONFORMANCE_DIR, 'corpus', 'cases.json');
export const GOLDEN_DIR = join(CONFORMANCE_DIR, 'golden');
/** The users-and-permissions corpus (replayed after the main one, on the same server) and its golden. */
export const USERS_CORPUS_FILE = join(CONFORMANCE_DIR, 'users', 'cases.json');
export const USERS_GOLDEN_DIR = join(CONFORMANCE_DIR, 'users', 'golden');
/** The session-mode corpus (replayed after the main one on a server in session mode), its golden and deliberate differences. */
export const SESSIONS_CORPUS_FILE = join(CONFORMANCE_DIR, 'users-sessions', 'cases.json');
export const SESSIONS_GOLDEN_DIR = join(CONFORMANCE_DIR, 'users-sessions', 'golden');
export const SESSIONS_DELIBERATE_FILE = join(CONFORMANCE_DIR, 'users-sessions', 'deliberate.json');

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/**
 * The ordered cases of a corpus file (`{ cases: [...] }` or a bare array).
 * @example loadCorpus().length // 367
 */
export function loadCorpus(file: string = CORPUS_FILE): CorpusCase[] {
  const corpus = readJson<{ cases?: CorpusCase[] } | CorpusCase[]>(file);
  return Array.isArray(corpus) ? corpus : (corpus.cases ?? []);
}

/**
 * A replay output directory (`_index.json`, `_captures.json`, `<case>.json`), e.g. the Strapi golden.
 * @example const golden = loadSide(GOLDEN_DIR)
 */
export function loadSide(dir: string): ReplaySide {
  const index = existsSync(join(dir, '_index.json')) ? readJson<string[]>(join(dir, '_index.json')) : [];
  const captures = existsSync(join(dir, '_captures.json')) ? readJson<Captures>(join(dir, '_captures.json')) : {};
  const records = new Map<string, ReplayRecord>();
  for (const name of index) {
    const f = join(dir, `${name}.json`);
    if (existsSync(f)) records.set(name, readJson<ReplayRecord>(f));
  }
  return { index, captures, records };
}
