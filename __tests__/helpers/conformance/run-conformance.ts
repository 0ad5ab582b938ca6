import { compareSides } from './compare';
import { readFileSync } from 'node:fs';
import { GOLDEN_DIR, loadCorpus, loadSide, SESSIONS_CORPUS_FILE, SESSIONS_DELIBERATE_FILE, SESSIONS_GOLDEN_DIR, USERS_CORPUS_FILE, USERS_GOLDEN_DIR } from './load';
import { replayCorpus } from './replay-corpus';
import { blogTokens, startBlogApp } from './start-blog-app';
import type { CaseResult, CorpusCase } from './types';

/** What a conformance run produced. */
export interface ConformanceRun {
  readonly cases: readonly CorpusCase[];
  readonly results: readonly CaseResult[];
  /** The users-and-permissions corpus, replayed after the main one on the same server, and its results. */
  readonly usersCases: readonly CorpusCase[];
  readonly usersResults: readonly CaseResult[];
}

/**
 * Starts the example app empty, replays the whole corpus in order with the blog's two API tokens, then the
 * users-and-permissions corpus on the same server (as it was recorded), and compares every case with its golden
 * (`--loose-media` on, like the README's command; `jwt` values normalised).
 * @example const { results, usersResults } = await runConformance()
 */
export async function runConformance(): Promise<ConformanceRun> {
  const cases = loadCorpus();
  const usersCases = loadCorpus(USERS_CORPUS_FILE);
  const blog = await startBlogApp();
  try {
    const tokens = blogTokens();
    const run = await replayCorpus(cases, blog.base, tokens);
    const usersRun = await replayCorpus(usersCases, blog.base, tokens);
    return {
      cases,
      results: compareSides(loadSide(GOLDEN_DIR), run, cases, { looseMedia: true }),
      usersCases,
      usersResults: compareSides(loadSide(USERS_GOLDEN_DIR), usersRun, usersCases, { looseMedia: true }),
    };
  } finally {
    await blog.close();
  }
}

/** What the session-mode run produced: the main corpus, then the session cases, on one server in session mode. */
export interface SessionsConformanceRun {
  readonly results: readonly CaseResult[];
  readonly sessionsResults: readonly CaseResult[];
}

/**
 * The deliberate differences of the session-mode corpus (`users-sessions/deliberate.json`): case name -> the status
 * we answer instead of Strapi's.
 */
export function readDeliberate(file: string = SESSIONS_DELIBERATE_FILE): Record<string, number> {
  return (JSON.parse(readFileSync(file, 'utf8')) as { cases: Record<string, number> }).cases;
}

/**
 * Starts the example app empty in session mode (`USERS_SESSIONS=refresh`), replays the main corpus, then the
 * session-mode corpus on the same server (as it was recorded), and compares each with its golden. A case of
 * deliberate.json passes when our status is the one listed there (its body is not compared: Strapi's is a 200).
 * @example const { sessionsResults } = await runSessionsConformance()
 */
export async function runSessionsConformance(): Promise<SessionsConformanceRun> {
  const cases = loadCorpus();
  const sessionsCases = loadCorpus(SESSIONS_CORPUS_FILE);
  const deliberate = readDeliberate();
  const blog = await startBlogApp({ usersSessions: true });
  try {
    const tokens = blogTokens();
    const run = await replayCorpus(cases, blog.base, tokens);
    const sessionsRun = await replayCorpus(sessionsCases, blog.base, tokens);
    const compared = compareSides(loadSide(SESSIONS_GOLDEN_DIR), sessionsRun, sessionsCases, { looseMedia: true });
    const sessionsResults = compared.map((r): CaseResult => {
      const wanted = deliberate[r.name];
      if (wanted === undefined) return r;
      const got = sessionsRun.records.get(r.name)?.status;
      return { ...r, pass: got === wanted, diffs: got === wanted ? [] : [`deliberate difference: expected status ${wanted} got ${String(got)}`] };
    });
    return { results: compareSides(loadSide(GOLDEN_DIR), run, cases, { looseMedia: true }), sessionsResults };
  } finally {
    await blog.close();
  }
}
