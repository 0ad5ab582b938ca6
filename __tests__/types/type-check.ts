import path from 'node:path';
import ts from 'typescript';

const ROOT = path.join(__dirname, '..', '..');
let options: ts.CompilerOptions | undefined;

function compilerOptions(): ts.CompilerOptions {
  if (options) return options;
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!config) throw new Error('tsconfig.json not found');
  return (options = { ...config.options, types: [], noEmit: true });
}

/**
 * The type errors of TypeScript sources that exist only in memory, at paths in this folder (so that their
 * relative imports resolve), compiled with the repository's tsconfig: one message per error, `file(line): text`.
 *
 * @example
 * typeErrors({ 'check.ts': "import type { Article } from './generated/blog';\nexport const a: Article[] = [];" }); // []
 */
export function typeErrors(sources: Readonly<Record<string, string>>): string[] {
  const virtual = new Map(Object.entries(sources).map(([name, text]) => [path.join(__dirname, name), text]));
  const host = ts.createCompilerHost(compilerOptions());
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (file, lang, ...rest) => {
    const text = virtual.get(path.resolve(file));
    return text === undefined ? getSourceFile.call(host, file, lang, ...rest) : ts.createSourceFile(file, text, lang);
  };
  host.fileExists = (file) => virtual.has(path.resolve(file)) || fileExists.call(host, file);
  host.readFile = (file) => virtual.get(path.resolve(file)) ?? readFile.call(host, file);
  const program = ts.createProgram([...virtual.keys()], compilerOptions(), host);
  return [...virtual.keys()].flatMap((file) =>
    program.getSemanticDiagnostics(program.getSourceFile(file)).map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      return `${path.basename(file)}(${line}): ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    }),
  );
}

/**
 * The type errors of a TypeScript project (a tsconfig.json and the files it includes), as `tsc -p` reports them:
 * one message per error, `file(line): text`.
 *
 * @example
 * projectErrors(path.join(__dirname, 'tsconfig.json')); // [] when this folder type-checks
 */
export function projectErrors(tsconfig: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!config) throw new Error(`${tsconfig} not found`);
  const program = ts.createProgram(config.fileNames, { ...config.options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${path.relative(ROOT, d.file.fileName)}(${d.file.getLineAndCharacterOfPosition(d.start).line + 1})` : '';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}
