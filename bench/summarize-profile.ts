/** A V8 CPU profile (`Profiler.stop`, `.cpuprofile` files): the parts the summary reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

const shortUrl = (url: string): string => url.replace(/^.*\/node_modules\//, '').replace(/^.*\/(lib|bench|examples)\//, '$1/');

/**
 * Self time per function and per file, in ms per request (`requests` = how many requests the profile covers),
 * the `top` largest of each, idle time left out.
 */
export function summarizeProfile(profile: CpuProfile, requests: number, top: number): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const dt = profile.timeDeltas[i + 1] ?? 0;
    if (!node || node.callFrame.functionName === '(idle)') return;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = shortUrl(url) || functionName;
    const fn = `${functionName || '(anonymous)'} ${file}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + dt);
    byFile.set(file, (byFile.get(file) ?? 0) + dt);
    busy += dt;
  });
  const perRequest = (us: number): string => (us / 1000 / requests).toFixed(3).padStart(7);
  const table = (title: string, m: Map<string, number>): string[] => [
    `${title} (ms per request)`,
    ...[...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `${perRequest(v)}  ${k}`),
  ];
  return [`busy: ${perRequest(busy)} ms per request`, ...table('self time by file', byFile), ...table('self time by function', byFunction)].join('\n');
}
