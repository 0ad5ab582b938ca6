/**
 * Prints every failing conformance case with its diff (a developer tool: `npx ts-node --transpile-only
 * scripts/conformance-diffs.ts [REGEX]`).
 */
import { runConformance } from '../__tests__/helpers/conformance/run-conformance';

async function main(): Promise<void> {
  const only = process.argv[2] ? new RegExp(process.argv[2]) : null;
  const { results } = await runConformance();
  let failed = 0;
  for (const r of results) {
    if (r.pass || (only && !only.test(r.name))) continue;
    failed++;
    console.log(`FAIL ${r.name}`);
    for (const d of r.diffs) console.log(`     ${d}`);
  }
  console.log(`${results.filter((r) => r.pass).length} passed, ${failed} failed`);
}

main().then(() => process.exit(0), (e: unknown) => { console.error(e); process.exit(1); });
