import { runConformance } from '../helpers/conformance/run-conformance';
import {
  evaluateRatchet,
  formatRatchetProblems,
  formatSummary,
  readExpectedFailures,
} from '../helpers/conformance/expected-failures';

/**
 * The conformance ratchet: the example app, started empty, must answer every corpus case as Strapi did (then every
 * case of the users-and-permissions corpus, none of which may fail),
 * except the cases listed in expected-failures.json (each waiting for an issue area). A listed case that
 * passes fails the test (remove it: the list only shrinks); an unlisted case that fails fails the test.
 * Refresh the list deliberately with `npx ts-node --transpile-only __tests__/conformance/update-expected.ts`.
 */
describe('conformance corpus against examples/blog', () => {
  it('agrees with expected-failures.json on every case', async () => {
    const expected = readExpectedFailures();
    const { results, usersResults } = await runConformance();
    expect(results).toHaveLength(367);
    const verdict = evaluateRatchet(results, expected);
    process.stdout.write(`${formatSummary(verdict)}\n`);
    const problems = formatRatchetProblems(verdict);
    // The users-and-permissions corpus, replayed right after on the same server: every case passes.
    expect(usersResults).toHaveLength(63);
    const usersFailures = usersResults.filter((r) => !r.pass).map((r) => `users corpus: ${r.name}: ${r.diffs.join('; ')}`);
    process.stdout.write(`users conformance: ${usersResults.length - usersFailures.length} passed, ${usersFailures.length} failed\n`);
    problems.push(...usersFailures);
    if (problems.length > 0) throw new Error(`${formatSummary(verdict)}\n${problems.join('\n')}`);
  }, 240_000);
});
