import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '../../..');

/**
 * A host script that builds the router inside an async function (a microtask, as after any `await`) and exits as
 * soon as `router.ready` settles. process.emitWarning emits on process.nextTick: unless start-up waits for that
 * tick, the process is gone before the warning is printed.
 */
function hostScript(engine: string, onReady: string): string {
  return `
    const { createContentRouter, memoryEngine } = require('./lib');
    (async () => {
      await Promise.resolve();
      const router = createContentRouter({
        contentTypes: [{ kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes' }, attributes: { title: { type: 'string' } } }],
        engine: ${engine}, auth: { public: 'all' }, upload: false, logger: false,
      });
      ${onReady}
    })();`;
}

function run(code: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', code], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (exit) => resolve({ code: exit, stderr }));
  });
}

describe('start-up warnings reach stderr before router.ready settles', () => {
  it('a host that exits right after ready has printed CR_AUTH_OPEN and CR_MEMORY_ONLY', async () => {
    const { code, stderr } = await run(hostScript('memoryEngine()', 'await router.ready; process.exit(0);'));
    expect(code).toBe(0);
    expect(stderr).toMatch(/\[CR_AUTH_OPEN\] ContentRouterWarning: /);
    expect(stderr).toMatch(/\[CR_MEMORY_ONLY\] ContentRouterWarning: /);
  });

  it('a host that exits when start-up fails has printed them too', async () => {
    const failing = "Object.assign(Object.create(memoryEngine({ ephemeral: true })), { init: () => Promise.reject(new Error('no database')) })";
    const { code, stderr } = await run(hostScript(failing, 'router.ready.catch(() => process.exit(3));'));
    expect(code).toBe(3);
    expect(stderr).toMatch(/\[CR_AUTH_OPEN\] ContentRouterWarning: /);
  });
});
