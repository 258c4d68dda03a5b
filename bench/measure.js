// One measurement: probe a scenario once (status, body size), drive it with load.js while
// sampling the server's RSS, and reduce autocannon's result to the numbers the report needs.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { request } from './http-client.js';
import { cpuSecondsOf, cpuSnapshot, foreignCores, sampleRss, track, waitExit } from './proc.js';

const LOAD = fileURLToPath(new URL('./load.js', import.meta.url));
const BASELINE = fileURLToPath(new URL('./baseline-server.js', import.meta.url));

export const settings = {
  connections: 64,
  // 10 s per run keeps the whole bench (~19 load runs) at about 4 minutes; 5 s halves that.
  duration: Number(process.env.BENCH_DURATION ?? 10),
  // Uncounted warm-up: long enough for the JIT and the server's caches, short for the budget.
  warmup: Number(process.env.BENCH_WARMUP ?? (Number(process.env.BENCH_DURATION ?? 10) >= 10 ? 2 : 1)),
};

if (!(settings.duration > 0) || !(settings.warmup >= 0)) {
  throw new Error(`BENCH_DURATION must be > 0 and BENCH_WARMUP ≥ 0 (seconds), got ${settings.duration} and ${settings.warmup}`);
}

/**
 * Runs load.js in its own process and resolves with autocannon's result, plus `otherCores`:
 * the CPU other processes on the machine used meanwhile, and `serverCpuSeconds`: the CPU time
 * the processes of `serverPids()` used during the measured run (warm-up excluded).
 */
export async function runLoad(spec, serverPids = () => []) {
  const before = cpuSnapshot();
  const full = { connections: settings.connections, duration: settings.duration, warmup: settings.warmup, ...spec };
  // stdin stays an open pipe: load.js exits when it closes, i.e. when we die.
  const child = track(spawn(process.execPath, [LOAD, JSON.stringify(full)], { stdio: ['pipe', 'pipe', 'pipe'] }));
  let out = '';
  let err = '';
  let cpuAtStart = null;
  child.stdout.on('data', (c) => {
    out += c;
    if (cpuAtStart === null && out.includes('{"phase":"measure"}')) cpuAtStart = cpuSecondsOf(serverPids());
  });
  child.stderr.on('data', (c) => (err += c));
  const code = await waitExit(child, (full.warmup + full.duration + 40) * 1000);
  child.stdin.end();
  if (code !== 0) {
    child.kill('SIGKILL');
    throw new Error(`load.js failed (${code ?? 'timeout'}): ${err.trim().slice(0, 500)}`);
  }
  const serverCpuSeconds = cpuAtStart === null ? null : cpuSecondsOf(serverPids()) - cpuAtStart;
  return { ...JSON.parse(out.trim().split('\n').pop()), otherCores: foreignCores(before, cpuSnapshot()), serverCpuSeconds };
}

const matches = (expect, status) => (expect === '2xx' ? status >= 200 && status < 300 : status === expect);

/**
 * Sends each request of a scenario once: checks it answers as expected (a scenario that 404s
 * would otherwise "benchmark" an error page) and returns the response sizes for the baseline.
 */
export async function probe(baseUrl, scenario) {
  const sizes = [];
  for (const req of scenario.requests) {
    const res = await request(baseUrl + req.path, req);
    if (!matches(scenario.expect, res.status)) {
      throw new Error(`${scenario.name}: probe ${req.method} ${req.path} answered ${res.status} (expected ${scenario.expect}): ${res.text.slice(0, 200)}`);
    }
    if (scenario.expectCode) {
      const code = JSON.parse(res.text).code;
      if (code !== scenario.expectCode) throw new Error(`${scenario.name}: probe answered code "${code}", expected "${scenario.expectCode}"`);
    }
    sizes.push({ status: res.status, bytes: res.bytes });
  }
  return sizes;
}

/** autocannon result → the report's numbers. `expect` decides which statuses count as errors. */
function summarize(result, expect) {
  const statusCounts = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
  let expected = 0;
  let unexpected = 0;
  for (const [code, count] of Object.entries(statusCounts)) {
    if (matches(expect, Number(code))) expected += count;
    else unexpected += count;
  }
  return {
    reqPerSec: result.requests.average,
    expectedPerSec: expected / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + unexpected, // autocannon's errors include timeouts
    socketErrors: result.errors,
    timeouts: result.timeouts,
    statusCounts,
    total: result.requests.total,
    durationS: result.duration,
    otherCores: result.otherCores,
    // Server CPU per request: steadier than req/s on a shared machine (a slow neighbour lowers
    // both servers' req/s, much less their CPU per request). All requests count, errors too.
    cpuUsPerReq: result.serverCpuSeconds === null || !result.requests.total ? null : (result.serverCpuSeconds * 1e6) / result.requests.total,
  };
}

/** Loads a scenario on a running Siteward and samples the RSS of its serving processes meanwhile. */
export async function measureScenario(server, scenario) {
  const stopSampling = sampleRss(server.servingPids);
  let result;
  let memory;
  try {
    result = await runLoad(
      { url: server.baseUrl + scenario.requests[0].path, requests: scenario.requests, ...(scenario.connections && { connections: scenario.connections }) },
      server.servingPids,
    );
  } finally {
    memory = stopSampling();
  }
  const perProcess = [...memory.values()];
  return {
    ...summarize(result, scenario.expect),
    rssMB: Math.max(0, ...perProcess.map((m) => m.maxRssMB)),
    hwmMB: Math.max(0, ...perProcess.map((m) => m.hwmMB)),
    processes: perProcess.length,
  };
}

/**
 * The bare node:http baseline, one process for the whole run. Each scenario's baseline is the
 * same request shape (method, headers, body) answered with the same status and body size, and
 * is measured once per distinct set of (status, size): equal sizes reuse the result.
 */
export class Baselines {
  #child;
  #url;
  #cache = new Map();

  async start() {
    this.#child = track(spawn(process.execPath, [BASELINE], { stdio: ['pipe', 'pipe', 'inherit'] }));
    const port = await new Promise((resolve, reject) => {
      let buf = '';
      this.#child.stdout.on('data', (c) => {
        buf += c;
        if (buf.includes('\n')) resolve(JSON.parse(buf).port);
      });
      this.#child.once('exit', (code) => reject(new Error(`baseline-server exited (${code}) before listening`)));
    });
    this.#url = `http://127.0.0.1:${port}`;
  }

  static key(sizes) {
    return sizes.map((s) => `${s.status}/${s.bytes}`).join(',');
  }

  cached(sizes, connections) {
    return this.#cache.get(Baselines.key(sizes) + (connections ? ` ×${connections}` : ''));
  }

  async measure(scenario, sizes) {
    // A scenario with its own connection count gets a baseline measured the same way.
    const key = Baselines.key(sizes) + (scenario.connections ? ` ×${scenario.connections}` : '');
    if (!this.#cache.has(key)) {
      const requests = scenario.requests.map((req, i) => ({ ...req, path: `/${sizes[i].status}/${sizes[i].bytes}` }));
      const result = await runLoad({ url: this.#url + requests[0].path, requests, ...(scenario.connections && { connections: scenario.connections }) }, () => [this.#child.pid]);
      this.#cache.set(key, { key, ...summarize(result, scenario.expect) });
    }
    return this.#cache.get(key);
  }

  async stop() {
    this.#child?.stdin.end(); // it exits when its stdin closes
    if (this.#child && (await waitExit(this.#child, 3000)) === null) this.#child.kill('SIGKILL');
  }
}
