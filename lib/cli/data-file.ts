import { parseArgs } from 'node:util';
import { backupDataFile, repairDataFile, verifyDataFile, type DataFileReport } from '../engine/memory/storage/data-file-tools';

export const DATA_FILE_USAGE = `usage: content-router verify <data-file> [--json]
       content-router repair <data-file>
       content-router backup <data-file> <backup-file>

The embedded engine's data file (memoryEngine({ file }): the snapshot <data-file> and its journal
<data-file>.journal; docs/production.md):
  verify   report what the file holds and what is wrong, changing nothing (safe while the app runs);
           exit 0 when it loads whole, 1 otherwise (also when neither <data-file> nor its journal exists)
  repair   cut a torn journal tail off and compact the file (the app must be stopped: the file's lock is taken);
           duplicate keys and a damaged snapshot are reported, not repaired: restore a backup
  backup   write a consistent copy of the state to <backup-file>, its folder created if missing (safe while
           the app runs); restore it by copying it over <data-file> and deleting <data-file>.journal while the
           app is stopped`;

/** Where the commands write (the process's by default; tests pass their own). */
export interface DataFileIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIo: DataFileIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };

/**
 * `content-router verify|repair|backup`: the embedded engine's data file, checked, repaired or copied.
 * Resolves the exit code: 0, 1 (problems found or not repaired), 2 (usage).
 *
 * @example
 * process.exitCode = await runDataFileCommand('verify', ['./data/content.db']);
 */
export async function runDataFileCommand(command: 'verify' | 'repair' | 'backup', args: readonly string[], io: DataFileIo = processIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, options: { json: { type: 'boolean' }, help: { type: 'boolean' } } });
  } catch (error) {
    io.stderr(`content-router ${command}: ${(error as Error).message}\n\n${DATA_FILE_USAGE}\n`);
    return 2;
  }
  if (parsed.values.help) {
    io.stdout(`${DATA_FILE_USAGE}\n`);
    return 0;
  }
  const [file, out, ...extra] = parsed.positionals;
  if (!file || (command === 'backup') !== (out !== undefined) || extra.length > 0) {
    io.stderr(`${DATA_FILE_USAGE}\n`);
    return 2;
  }
  try {
    if (command === 'verify') {
      const report = await verifyDataFile(file);
      io.stdout(parsed.values.json ? `${JSON.stringify(report, null, 2)}\n` : describeReport(report));
      return report.ok ? 0 : 1;
    }
    if (command === 'repair') {
      const { before, done } = await repairDataFile(file);
      io.stdout(describeReport(before));
      if (done.length === 0) {
        io.stdout('not repaired: these problems need a backup (content-router backup, docs/production.md); the files are unchanged\n');
        return 1;
      }
      for (const line of done) io.stdout(`repaired: ${line}\n`);
      return 0;
    }
    const result = await backupDataFile(file, out!);
    const rows = Object.values(result.collections).reduce((a, b) => a + b, 0);
    io.stdout(`content-router: backed up ${file} to ${out} (${rows} rows in ${Object.keys(result.collections).length} collections, through journal record ${result.seq})\n`);
    return 0;
  } catch (error) {
    io.stderr(`content-router ${command}: ${(error as Error).message}\n`);
    return 1;
  }
}

function describeReport(report: DataFileReport): string {
  const lines = [`${report.file}: ${report.ok ? 'ok' : `${report.problems.length} problem(s)`}`];
  lines.push(report.snapshot ? `  snapshot: ${report.snapshot.bytes} bytes, through journal record ${report.snapshot.seq}` : '  snapshot: none');
  const j = report.journal;
  lines.push(`  journal: ${j.bytes} bytes, ${j.records} record(s) after the snapshot${j.firstSeq === null ? '' : ` (${j.firstSeq} to ${j.lastSeq})`}`);
  const counts = Object.entries(report.collections).map(([name, n]) => `${name} ${n}`);
  lines.push(`  rows: ${counts.length ? counts.join(', ') : 'none'}`);
  for (const problem of report.problems) lines.push(`  problem: ${problem}`);
  return `${lines.join('\n')}\n`;
}
