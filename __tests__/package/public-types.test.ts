import path from 'node:path';
import ts from 'typescript';

/**
 * The published declarations compile in an app without mongoose: mongoose is an optional peer dependency, so
 * no emitted `.d.ts` may import `mongoose` or `mongodb` (before, `mongoEngine`'s options typed `connection` as
 * mongoose's `Connection`, and `tsc` failed in such an app unless it set `skipLibCheck`).
 */
it('no declaration reachable from the package entry imports mongoose or mongodb', () => {
  const root = path.join(__dirname, '..', '..');
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.build.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!config) throw new Error('tsconfig.build.json not found');
  const program = ts.createProgram([path.join(root, 'lib', 'index.ts')], { ...config.options, declaration: true, emitDeclarationOnly: true, noEmit: false });
  const emitted = new Map<string, string>();
  program.emit(undefined, (fileName, text) => emitted.set(path.resolve(fileName), text));
  // Follow the relative imports from dist/index.d.ts: what an app's compiler reads.
  const entry = [...emitted.keys()].find((f) => f.endsWith(`${path.sep}index.d.ts`) && path.dirname(f) === path.resolve(config.options.outDir!));
  const seen = new Set<string>();
  const queue = [entry!];
  const offenders: string[] = [];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = emitted.get(file) ?? '';
    if (/from ['"](mongoose|mongodb)['"]|import\(['"](mongoose|mongodb)['"]\)/.test(text)) offenders.push(path.relative(root, file));
    for (const [, spec] of text.matchAll(/(?:from |import\()['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const base = path.resolve(path.dirname(file), spec!);
      queue.push(emitted.has(`${base}.d.ts`) ? `${base}.d.ts` : path.join(base, 'index.d.ts'));
    }
  }
  expect(seen.size).toBeGreaterThan(10);
  expect(offenders).toEqual([]);
}, 120_000);
