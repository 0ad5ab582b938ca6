import { evaluateRatchet, formatRatchetProblems, formatSummary, readExpectedFailures } from '../helpers/conformance/expected-failures';
import { readDeliberate, runSessionsConformance } from '../helpers/conformance/run-conformance';

/**
 * Session mode (`jwtManagement: 'refresh'`, the example app with `USERS_SESSIONS=refresh`): the example app started
 * empty, the main corpus replayed (the ratchet of expected-failures.json holds in this mode too), then the 48 cases
 * recorded from Strapi 5.54 in session mode. Every one passes; the two of deliberate.json (an access token whose
 * session has ended is refused at once) with the status listed there.
 */
describe('session-mode conformance corpus against examples/blog (USERS_SESSIONS=refresh)', () => {
  it('answers every session case as Strapi did, the deliberate ones with their listed status', async () => {
    const { results, sessionsResults } = await runSessionsConformance();
    expect(results).toHaveLength(367);
    const verdict = evaluateRatchet(results, readExpectedFailures());
    const problems = formatRatchetProblems(verdict);
    expect(sessionsResults).toHaveLength(48);
    const deliberate = Object.keys(readDeliberate());
    expect(deliberate.every((name) => sessionsResults.some((r) => r.name === name))).toBe(true);
    const failures = sessionsResults.filter((r) => !r.pass).map((r) => `sessions corpus: ${r.name}: ${r.diffs.join('; ')}`);
    process.stdout.write(`session-mode conformance: ${sessionsResults.length - failures.length} passed, ${failures.length} failed\n`);
    problems.push(...failures);
    if (problems.length > 0) throw new Error(`${formatSummary(verdict)}\n${problems.join('\n')}`);
  }, 300_000);
});
