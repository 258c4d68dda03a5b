// One measurement: capture a scenario's answers once (status, raw bytes), drive it with load.js
// while sampling the server's RSS, and reduce autocannon's result to the numbers the report
// needs. Also the floors Siteward is compared with (Baselines).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { rawExchange, responseDifference, withoutDate } from './capture.js';
import { request } from './http-client.js';
import { cpuSecondsOf, cpuSnapshot, foreignCores, sampleRss, track, waitExit } from './proc.js';

const LOAD = fileURLToPath(new URL('./load.js', import.meta.url));
/**
 * V8 flags of the load generator. autocannon keeps each response's body as a string; on the
 * 62 KB module/all answers V8's allocation-site pretenuring decided, at random per process, to
 * allocate those strings in the old generation, and that process then managed half the
 * requests (6k instead of 11.5k req/s at the same server CPU per request: 5 of 6 fresh processes
 * in one trial, 0 of 6 with this flag). Siteward's rows and the floors alike took either mode,
 * so ratios moved 0.5-1.8 by chance (docs/performance.md 23).
 */
const LOAD_FLAGS = ['--no-allocation-site-pretenuring'];
const BASELINE = fileURLToPath(new URL('./baseline-server.js', import.meta.url));

export const settings = {
  connections: 64,
  // 7 s per run keeps the whole bench (about 32 load runs with both floors and PostgreSQL) near
  // 6 minutes, under the 8 the budget allows; 3 s makes a quick check.
  duration: Number(process.env.BENCH_DURATION ?? 7),
  // Uncounted warm-up: long enough for the JIT and the server's caches, short for the budget.
  warmup: Number(process.env.BENCH_WARMUP ?? (Number(process.env.BENCH_DURATION ?? 7) >= 5 ? 2 : 1)),
};

if (!(settings.duration > 0) || !(settings.warmup >= 0)) {
  throw new Error(`BENCH_DURATION must be > 0 and BENCH_WARMUP ≥ 0 (seconds), got ${settings.duration} and ${settings.warmup}`);
}

/**
 * Runs load.js in its own process and resolves with autocannon's result, plus `otherCores`:
 * the CPU other processes on the machine used meanwhile, and `serverCpuSeconds`: the CPU time
 * the processes of `serverPids()` used during the measured run (warm-up excluded).
 */
export async function runLoad(spec, serverPids = () => [], ownComms = []) {
  const before = cpuSnapshot();
  const full = { connections: settings.connections, duration: settings.duration, warmup: settings.warmup, ...spec };
  // stdin stays an open pipe: load.js exits when it closes, i.e. when we die.
  const child = track(spawn(process.execPath, [...LOAD_FLAGS, LOAD, JSON.stringify(full)], { stdio: ['pipe', 'pipe', 'pipe'] }));
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
  return {
    ...JSON.parse(out.trim().split('\n').pop()),
    otherCores: foreignCores(before, cpuSnapshot(), process.pid, ownComms),
    serverCpuSeconds,
  };
}

const matches = (expect, status) => (expect === '2xx' ? status >= 200 && status < 300 : status === expect);

/** Throws unless `res` ({ status, text }) is what the scenario expects (status, and error code if any). */
function check(scenario, req, status, text) {
  if (!matches(scenario.expect, status)) {
    throw new Error(
      `${scenario.name}: probe ${req.method} ${req.path} answered ${status} (expected ${scenario.expect}): ${text.slice(0, 200)}`,
    );
  }
  if (scenario.expectCode) {
    const code = JSON.parse(text).code;
    if (code !== scenario.expectCode) throw new Error(`${scenario.name}: probe answered code "${code}", expected "${scenario.expectCode}"`);
  }
}

/**
 * Sends each request of a scenario once: checks it answers as expected (a scenario that 404s
 * would otherwise "benchmark" an error page) and returns the response sizes for the baseline.
 */
export async function probe(baseUrl, scenario) {
  const sizes = [];
  for (const req of scenario.requests) {
    const res = await request(baseUrl + req.path, req);
    check(scenario, req, res.status, res.text);
    sizes.push({ status: res.status, bytes: res.bytes });
  }
  return sizes;
}

/**
 * Like probe, but sends each request as the exact bytes the load sends and keeps each raw
 * response (capture.js): the identical-bytes floor replays these. Returns { sizes, responses }.
 */
export async function capture(baseUrl, scenario) {
  const responses = [];
  for (const req of scenario.requests) {
    const res = await rawExchange(baseUrl, req);
    check(scenario, req, res.statusCode, res.body.toString('utf8'));
    responses.push(res);
  }
  return { responses, sizes: responses.map((r) => ({ status: r.statusCode, bytes: r.body.length })) };
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
    // Milliseconds with µs resolution (load.js's histogram); autocannon's whole-ms figures otherwise.
    p50: result.latencyUs ? result.latencyUs.p50 / 1000 : result.latency.p50,
    p99: result.latencyUs ? result.latencyUs.p99 / 1000 : result.latency.p99,
    errors: result.errors + unexpected, // autocannon's errors include timeouts
    socketErrors: result.errors,
    timeouts: result.timeouts,
    statusCounts,
    total: result.requests.total,
    durationS: result.duration,
    otherCores: result.otherCores,
    // Server CPU per request: steadier than req/s on a shared machine (a slow neighbour lowers
    // both servers' req/s, much less their CPU per request). All requests count, errors too.
    cpuUsPerReq:
      result.serverCpuSeconds === null || !result.requests.total ? null : (result.serverCpuSeconds * 1e6) / result.requests.total,
  };
}

/**
 * Loads a scenario on a running Siteward and samples the RSS of its serving processes meanwhile.
 * `times` ({ duration, warmup } in seconds) replaces the run's own for this load.
 */
export async function measureScenario(server, scenario, times = {}) {
  const stopSampling = sampleRss(server.servingPids);
  let result;
  let memory;
  try {
    result = await runLoad(
      {
        url: server.baseUrl + scenario.requests[0].path,
        requests: scenario.requests,
        ...(scenario.connections && { connections: scenario.connections }),
        ...(scenario.connectionRequests && { connectionRequests: scenario.connectionRequests }),
        // Toggles: a deactivation sent at the end of the warm-up may still be committing
        // (PostgreSQL: p99 in the hundreds of ms). Landing after the measured run's first
        // activation, it would make the deactivation that follows a 409 already_inactive.
        ...(scenario.toggle && { settleMs: 1500 }),
        ...times,
      },
      server.servingPids,
      // A server on PostgreSQL: the database's processes work for it.
      server.database === 'postgres' ? ['postgres'] : [],
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
 * The bare node:http floors (baseline-server.js), one process for the whole run:
 * - `replay`: the identical-bytes floor. Siteward's captured answers to a scenario's requests
 *   are registered with the server, checked to come back byte for byte (Date excepted), and
 *   loaded with the scenario's own requests (method, headers, body; the path gets a /replay/<id>
 *   prefix that picks the answer). Measured once per distinct set of answers: a scaling row
 *   whose answers are the same bytes as a main scenario's reuses that result.
 * - `bodyOnly`: issue 6's floor: the same status and body size with 2 headers. Measured once
 *   per distinct set of (status, size).
 */
export class Baselines {
  #child;
  #url;
  #bodyOnly = new Map();
  #replaysBySize = new Map();
  #registered = new Map(); // response key → replay id
  #acks = new Map();

  async start() {
    // Without V8's memory reducer, as Siteward's workers (src/cluster.ts): the floor sits idle
    // while Siteward is measured, and after an idle spell the reducer leaves node's own
    // process.nextTick on a slow path (docs/performance.md 22), which would flatter the ratios.
    this.#child = track(spawn(process.execPath, ['--no-memory-reducer', BASELINE], { stdio: ['pipe', 'pipe', 'inherit', 'ipc'] }));
    this.#child.on('message', (msg) => {
      this.#acks.get(msg.id)?.(msg);
      this.#acks.delete(msg.id);
    });
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

  static sizeKey(sizes, connections) {
    return sizes.map((s) => `${s.status}/${s.bytes}`).join(',') + (connections ? ` ×${connections}` : '');
  }

  /** A response's identity for the replay: its bytes with the Date value blanked. */
  static responseKey(res) {
    return createHash('sha256').update(withoutDate(res.raw)).digest('hex').slice(0, 16);
  }

  static replayKey(responses, connections) {
    return responses.map(Baselines.responseKey).join(',') + (connections ? ` ×${connections}` : '');
  }

  cached(sizes, connections) {
    return this.#bodyOnly.get(Baselines.sizeKey(sizes, connections));
  }

  /**
   * The identical-bytes floor measured for a main scenario whose answers have the same statuses
   * and byte counts on the wire as `responses`. Scaling rows use it: their answers differ from
   * the main ones only in values of the same length (the port in Link, the nonce), so the
   * floor's work is the same.
   */
  cachedReplay(responses, connections) {
    return this.#replaysBySize.get(Baselines.wireSizeKey(responses, connections));
  }

  static wireSizeKey(responses, connections) {
    return responses.map((r) => `${r.statusCode}/${r.raw.length}`).join(',') + (connections ? ` ×${connections}` : '');
  }

  /** The body-only floor of a scenario. */
  async measure(scenario, sizes) {
    // A scenario with its own connection count gets a baseline measured the same way.
    const key = Baselines.sizeKey(sizes, scenario.connections);
    if (!this.#bodyOnly.has(key)) {
      const requests = scenario.requests.map((req, i) => ({ ...req, path: `/${sizes[i].status}/${sizes[i].bytes}` }));
      const result = await runLoad(
        { url: this.#url + requests[0].path, requests, ...(scenario.connections && { connections: scenario.connections }) },
        () => [this.#child.pid],
      );
      this.#bodyOnly.set(key, { key, kind: 'body-only', ...summarize(result, scenario.expect) });
    }
    return this.#bodyOnly.get(key);
  }

  /** Registers a captured response with the replay server; resolves with its id. */
  async #register(res) {
    const key = Baselines.responseKey(res);
    if (this.#registered.has(key)) return this.#registered.get(key);
    const id = this.#registered.size + 1;
    const ack = new Promise((resolve) => this.#acks.set(id, resolve));
    this.#child.send({
      id,
      statusCode: res.statusCode,
      statusMessage: res.statusMessage,
      headers: res.headers,
      chunked: res.chunked,
      body: res.body.toString('base64'),
    });
    const reply = await ack;
    if (!reply.ok) throw new Error(reply.error);
    this.#registered.set(key, id);
    return id;
  }

  /**
   * Registers Siteward's captured answers to a scenario's requests (`responses[i]` answers
   * `scenario.requests[i]`) and returns the scenario's requests aimed at their replay. Before
   * that, fetches each answer once from the replay server with the scenario's own request and
   * fails loudly unless it is the captured one byte for byte (apart from the Date value): a
   * floor that sends other bytes would measure nothing.
   */
  async replayRequests(scenario, responses) {
    const requests = [];
    for (const [i, req] of scenario.requests.entries()) {
      const id = await this.#register(responses[i]);
      const replayed = { ...req, path: `/replay/${id}${req.path}` };
      const diff = responseDifference(responses[i], await rawExchange(this.#url, replayed));
      if (diff) throw new Error(`${scenario.name}: the replay floor does not answer Siteward's bytes: ${diff}`);
      requests.push(replayed);
    }
    return requests;
  }

  get url() {
    return this.#url;
  }

  /**
   * One load of the identical-bytes floor of a scenario whose answers were captured (see
   * replayRequests), for `times` ({ duration, warmup }); not kept (`keepReplay` keeps a row's).
   */
  async measureReplayOnce(scenario, responses, times = {}) {
    const requests = await this.replayRequests(scenario, responses);
    const result = await runLoad(
      { url: this.#url + requests[0].path, requests, ...(scenario.connections && { connections: scenario.connections }), ...times },
      () => [this.#child.pid],
    );
    return { key: Baselines.replayKey(responses, scenario.connections), kind: 'identical bytes', ...summarize(result, scenario.expect) };
  }

  /** Keeps the floor a row was judged against, for the rows whose answers have the same wire sizes (`cachedReplay`). */
  keepReplay(responses, connections, floor) {
    this.#replaysBySize.set(Baselines.wireSizeKey(responses, connections), floor);
  }

  async stop() {
    this.#child?.stdin.end(); // it exits when its stdin closes
    if (this.#child && (await waitExit(this.#child, 3000)) === null) this.#child.kill('SIGKILL');
  }
}
