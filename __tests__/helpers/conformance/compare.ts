import { diff, short } from './diff';
import { buildDocSymbols, normalize, type NormalizeContext, type NormalizeOptions } from './normalize';
import type { CaseResult, CompareMode, CorpusCase, ReplayRecord, ReplaySide } from './types';

function mediaType(h: ReplayRecord['headers'] | undefined): string | null {
  const ct = h?.['content-type'];
  return ct ? String(ct).split(';')[0]!.trim().toLowerCase() : null;
}

function errorOf(body: unknown): { name?: unknown; status?: unknown } | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const e = (body as { error?: unknown }).error;
  return e !== null && typeof e === 'object' ? (e as { name?: unknown; status?: unknown }) : undefined;
}

/**
 * The differences between the golden answer `g` and another server's answer `o` for one case, under the
 * case's compare mode: `full` (status, media type, normalised body), `status`, `error-name` (status,
 * error.name, error.status) or `error-class` (both sides answer >= 400).
 * @example compareCase('status', golden, other, ctxG, ctxO) // ['status: expected 200 got 404']
 */
export function compareCase(mode: CompareMode, g: ReplayRecord, o: ReplayRecord | undefined, ctxG: NormalizeContext, ctxO: NormalizeContext): string[] {
  const diffs: string[] = [];
  if (!o) return ['missing in replay output'];
  if (mode === 'error-class') {
    if (!(g.status >= 400 && o.status >= 400)) diffs.push(`status: expected an error (golden ${g.status}) got ${o.status}`);
    return diffs;
  }
  if (g.status !== o.status) diffs.push(`status: expected ${g.status} got ${o.status}`);
  if (mode === 'status') return diffs;
  if (mode === 'error-name') {
    const ge = errorOf(g.body);
    const oe = errorOf(o.body);
    if (ge?.name !== oe?.name) diffs.push(`error.name: expected ${short(ge?.name)} got ${short(oe?.name)}`);
    if (ge?.status !== oe?.status) diffs.push(`error.status: expected ${short(ge?.status)} got ${short(oe?.status)}`);
    return diffs;
  }
  const gt = mediaType(g.headers);
  const ot = mediaType(o.headers);
  if (gt !== ot) diffs.push(`content-type: expected ${gt} got ${ot}`);
  diffs.push(...diff(normalize(g.body, ctxG), normalize(o.body, ctxO)));
  return diffs;
}

/** Options of {@link compareSides}: compare.mjs's flags. */
export interface CompareOptions extends NormalizeOptions {
  /** Only cases whose name matches. */
  readonly only?: RegExp;
}

/**
 * Compares every case of the golden side (in its order) with the other side, as compare.mjs does; modes
 * come from the corpus (`compare` field, default `full`).
 * @example compareSides(loadSide(GOLDEN_DIR), run, loadCorpus(), { looseMedia: true })
 */
export function compareSides(golden: ReplaySide, other: ReplaySide, cases: readonly CorpusCase[], options: CompareOptions = {}): CaseResult[] {
  const modes = new Map<string, CompareMode>(cases.map((c) => [c.name, c.compare ?? 'full']));
  const flags = { strictIds: options.strictIds, looseMedia: options.looseMedia };
  const ctxG: NormalizeContext = { docs: buildDocSymbols(golden), ...flags };
  const ctxO: NormalizeContext = { docs: buildDocSymbols(other), ...flags };
  const results: CaseResult[] = [];
  for (const name of golden.index) {
    if (options.only && !options.only.test(name)) continue;
    const g = golden.records.get(name);
    const mode = modes.get(name) ?? 'full';
    const diffs = g ? compareCase(mode, g, other.records.get(name), ctxG, ctxO) : ['missing in golden'];
    results.push({ name, mode, pass: diffs.length === 0, diffs });
  }
  return results;
}
