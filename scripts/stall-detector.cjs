// An event-loop stall detector preloaded into the example app by `npm run soak` (`node --require` this file):
// a timer every TICK_MS measures how late it fires; a lateness over STALL_RECORD_MS (500) is a stall, recorded
// as one JSON line in STALL_DIR/stalls.jsonl ({ ms, cpuMs: the CPU time the main thread got meanwhile, at, requests:
// the HTTP requests in flight during it, profile }). A V8
// CPU profile runs all the time in windows of WINDOW_MS (node:inspector, Profiler, sampled every 2 ms): a window
// holding a stall in which the app worked at least half of STALL_RECORD_MS (its CPU time) is written to
// STALL_DIR/stall-<time>-<ms>ms-cpu<ms>ms.cpuprofile (the MAX_PROFILES of the most CPU; open in Chrome DevTools, or
// bench/summarize-profile.ts); the others are dropped. Only when STALL_DIR is set.
'use strict';
const diagnostics = require('node:diagnostics_channel');
const fs = require('node:fs');
const inspector = require('node:inspector');
const path = require('node:path');

const dir = process.env.STALL_DIR;
if (dir) start(dir);

/**
 * The CPU time (ms) of the main thread (the event loop's): Linux's /proc/self/task/<pid>/stat utime + stime (in
 * clock ticks, 100 per second: https://man7.org/linux/man-pages/man5/proc_pid_stat.5.html), else the whole
 * process's (process.cpuUsage: GC helpers and the thread pool included).
 */
function mainThreadCpuMs() {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // fields 14 and 15 of the file, after pid and (comm)
  } catch {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
}

function start(folder) {
  const TICK_MS = 20;
  const WINDOW_MS = 5000;
  const RECORD_MS = Number(process.env.STALL_RECORD_MS || 500);
  const MAX_PROFILES = Number(process.env.STALL_MAX_PROFILES || 10);
  fs.mkdirSync(folder, { recursive: true });
  const lines = path.join(folder, 'stalls.jsonl');

  // The requests in flight (method and the first 300 characters of the URL) and the last ones that ended, to name
  // what ran during a stall: a request that blocks the loop usually answers before the timer can fire.
  const inFlight = new Map();
  const ended = [];
  diagnostics.subscribe('http.server.request.start', ({ request, response }) => {
    const entry = { what: `${request.method} ${String(request.url).slice(0, 300)}`, end: null };
    inFlight.set(response, entry);
    response.once('close', () => {
      inFlight.delete(response);
      entry.end = Date.now();
      ended.push(entry);
      if (ended.length > 64) ended.shift();
    });
  });
  /** The requests in flight at some moment since `since`. */
  const during = (since) => [...inFlight.values(), ...ended.filter((e) => e.end >= since)].map((e) => e.what).slice(0, 20);

  const session = new inspector.Session();
  session.connect();
  const kept = []; // the profiles written: { file, cpuMs }, at most MAX_PROFILES, those of the most CPU
  let windowStart = Date.now();
  let pending = []; // the stalls of the running window, written with its profile
  // The time the detector itself holds the main thread: an in-process inspector session runs Profiler.stop and
  // Profiler.start synchronously inside session.post (measured in the soak: about 0.6 s a stop once the app has run
  // a while). It is not the app's stall: left in, each stop was the next stall, which stopped the profile again,
  // and the loop held the app for 40 s of 600 ms stalls. The timer below subtracts it.
  let ownMs = 0;
  const post = (method, params) => new Promise((resolve, reject) => {
    const started = performance.now();
    session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result)));
    ownMs += performance.now() - started;
  });
  const begin = () => post('Profiler.enable').then(() => post('Profiler.setSamplingInterval', { interval: 2000 })).then(() => post('Profiler.start'));
  let rotating = begin();

  const rotate = () => {
    const stalls = pending;
    pending = [];
    windowStart = Date.now();
    rotating = rotating.then(() => post('Profiler.stop')).then(({ profile }) => {
      let file = null;
      const cpuMs = stalls.length > 0 ? Math.max(...stalls.map((s) => s.cpuMs)) : 0;
      // Only a window whose stall was the app's own work (CPU time) is worth a profile: keep those of the most.
      const least = kept.reduce((min, k) => (min && min.cpuMs <= k.cpuMs ? min : k), null);
      if (cpuMs >= RECORD_MS / 2 && (kept.length < MAX_PROFILES || cpuMs > least.cpuMs)) {
        if (kept.length >= MAX_PROFILES) {
          fs.rmSync(least.file, { force: true });
          kept.splice(kept.indexOf(least), 1);
        }
        const longest = Math.max(...stalls.map((s) => s.ms));
        file = path.join(folder, `stall-${stalls[0].at.replace(/[:.]/g, '-')}-${longest}ms-cpu${cpuMs}ms.cpuprofile`);
        fs.writeFileSync(file, JSON.stringify(profile));
        kept.push({ file, cpuMs });
      }
      for (const stall of stalls) fs.appendFileSync(lines, `${JSON.stringify({ ...stall, profile: file })}\n`);
      return post('Profiler.start');
    }).catch((error) => {
      process.emitWarning(`stall detector: ${error.message}`);
    });
  };

  let last = Date.now();
  let cpu = mainThreadCpuMs();
  const timer = setInterval(() => {
    const now = Date.now();
    const own = ownMs;
    ownMs = 0;
    const late = Math.round(now - last - TICK_MS - own);
    const cpuNow = mainThreadCpuMs();
    // cpuMs: the CPU time the main thread got meanwhile. A loop blocked by its own work gets about the stall's
    // length; a process the machine did not run (CI's shared cores) gets little, and its profile holds few samples.
    const cpuMs = Math.max(0, Math.round(cpuNow - cpu - own));
    cpu = cpuNow;
    last = now;
    if (late > RECORD_MS) pending.push({ ms: late, cpuMs, at: new Date(now - late).toISOString(), requests: during(now - late) });
    if (pending.length > 0 || now - windowStart >= WINDOW_MS) rotate();
  }, TICK_MS);
  timer.unref();
}
