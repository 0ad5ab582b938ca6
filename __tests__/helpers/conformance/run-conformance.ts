import { compareSides } from './compare';
import { GOLDEN_DIR, loadCorpus, loadSide, USERS_CORPUS_FILE, USERS_GOLDEN_DIR } from './load';
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
