import { compareSides } from './compare';
import { GOLDEN_DIR, loadCorpus, loadSide } from './load';
import { replayCorpus } from './replay-corpus';
import { blogTokens, startBlogApp } from './start-blog-app';
import type { CaseResult, CorpusCase } from './types';

/** What a conformance run produced. */
export interface ConformanceRun {
  readonly cases: readonly CorpusCase[];
  readonly results: readonly CaseResult[];
}

/**
 * Starts the example app empty, replays the whole corpus in order with the blog's two API tokens and
 * compares every case with the golden (`--loose-media` on, like the README's command).
 * @example const { results } = await runConformance()
 */
export async function runConformance(): Promise<ConformanceRun> {
  const cases = loadCorpus();
  const blog = await startBlogApp();
  try {
    const run = await replayCorpus(cases, blog.base, blogTokens());
    return { cases, results: compareSides(loadSide(GOLDEN_DIR), run, cases, { looseMedia: true }) };
  } finally {
    await blog.close();
  }
}
