/**
 * Rewrites __tests__/conformance/expected-failures.json from a fresh conformance run: every failing case,
 * keeping the area already written for listed cases and guessing it (from the case name) for new ones.
 * Review the diff before committing: a case that used to pass and now fails is a regression, not a new entry.
 *
 *   npx ts-node --transpile-only __tests__/conformance/update-expected.ts
 */
import {
  EXPECTED_FAILURES_FILE,
  evaluateRatchet,
  formatSummary,
  readExpectedFailures,
  updateExpectedFailures,
  writeExpectedFailures,
} from '../helpers/conformance/expected-failures';
import { runConformance } from '../helpers/conformance/run-conformance';

async function main(): Promise<void> {
  const previous = readExpectedFailures();
  const { cases, results } = await runConformance();
  const verdict = evaluateRatchet(results, previous);
  const next = updateExpectedFailures(results, previous, cases);
  writeExpectedFailures(next);
  for (const r of verdict.unexpectedFailures) console.log(`added   ${r.name} (${next[r.name]})${r.diffs[0] ? `: ${r.diffs[0]}` : ''}`);
  for (const name of [...verdict.unexpectedPasses, ...verdict.unknownEntries]) console.log(`removed ${name}`);
  console.log(formatSummary(evaluateRatchet(results, next)));
  console.log(`wrote ${EXPECTED_FAILURES_FILE} (${Object.keys(next).length} entries)`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
