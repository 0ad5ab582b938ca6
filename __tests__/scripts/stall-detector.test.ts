import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * scripts/stall-detector.cjs, which `npm run soak` preloads into the example app: a child process that blocks its
 * event loop (while an HTTP request is in flight) must leave one stall line naming that request and the CPU time it took, with a CPU
 * profile that holds the blocking function; one that never blocks, none.
 */
const detector = path.resolve(__dirname, '../../scripts/stall-detector.cjs');

const CHILD = `
const http = require('node:http');
function blockTheLoop(ms) { const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }; const end = cpu() + ms; let x = 0; while (cpu() < end) x += Math.sqrt(x + 1); return x; }
const server = http.createServer((req, res) => { if (process.env.BLOCK) blockTheLoop(Number(process.env.BLOCK)); res.end('ok'); });
server.listen(0, '127.0.0.1', () => {
  setTimeout(() => http.get({ host: '127.0.0.1', port: server.address().port, path: '/slow?x=1' }, (res) => {
    res.resume();
    res.on('end', () => setTimeout(() => { server.close(); }, 300));
  }), 100);
});
`;

async function runChild(dir: string, block: number | null): Promise<void> {
  const env = { ...process.env, STALL_DIR: dir, ...(block === null ? {} : { BLOCK: String(block) }) };
  await promisify(execFile)(process.execPath, ['--require', detector, '-e', CHILD], { env, timeout: 20_000 });
}

describe('scripts/stall-detector.cjs', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cr-stalls-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('records a stall over 500 ms with the request in flight and a CPU profile holding the blocking function', async () => {
    await runChild(dir, 900);
    const stalls = fs.readFileSync(path.join(dir, 'stalls.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { ms: number; cpuMs: number; requests: string[]; profile: string });
    expect(stalls).toHaveLength(1);
    expect(stalls[0]!.ms).toBeGreaterThanOrEqual(800);
    // The loop was blocked by the process's own work: 900 ms of CPU (blockTheLoop counts CPU, not wall time).
    expect(stalls[0]!.cpuMs).toBeGreaterThanOrEqual(800);
    expect(stalls[0]!.requests).toEqual(['GET /slow?x=1']);
    const profile = JSON.parse(fs.readFileSync(stalls[0]!.profile, 'utf8')) as { nodes: { callFrame: { functionName: string } }[] };
    expect(profile.nodes.map((n) => n.callFrame.functionName)).toContain('blockTheLoop');
  });

  it('records nothing when the loop never blocks', async () => {
    await runChild(dir, null);
    expect(fs.existsSync(path.join(dir, 'stalls.jsonl'))).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
