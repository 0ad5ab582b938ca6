import type { TransferProgressEvent } from './progress';

const STAGE_NAMES: Readonly<Record<string, string>> = { scan: 'checking', entities: 'entities', assets: 'files', links: 'links' };

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * One progress line: `checking: 1200 items, 35.2 MB`, `files: 11 (0.7 MB) done`.
 *
 * @example
 * importStrapiExport(router, file, { onProgress: (e) => process.stderr.write(`\r${formatProgress(e)}`) });
 */
export function formatProgress(event: TransferProgressEvent): string {
  const name = STAGE_NAMES[event.stage] ?? event.stage;
  const bytes = event.bytes > 0 ? ` (${megabytes(event.bytes)})` : '';
  return `${name}: ${event.count}${bytes}${event.done ? ' done' : ''}`;
}
