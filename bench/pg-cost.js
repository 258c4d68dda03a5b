// Micro-bench: what a request costs on PostgreSQL, in CPU of the Siteward process and of the
// PostgreSQL backends serving it (not req/s: the machine is shared). `siteward start` on a fresh
// schema of SITEWARD_BENCH_PG, then, per scenario, N requests over C keep-alive connections from
// this process, with utime+stime of the server and of its backends (found by application_name)
// read from /proc before and after. Needs `npm run build:server` first.
//
//   SITEWARD_BENCH_PG=postgres://postgres@127.0.0.1:5432/test node bench/pg-cost.js [N=2000] [rounds=3]
//
// PGCOST_HOSTS=2 lists the server twice in the URL with target_session_attrs=read-write (the
// several-host path of docs/operations.md "High availability"), to compare with the one-host path.
//
// Scenarios: GET settings, GET module/all (1 connection each, sequential), the markdown toggle
// pair (1 connection), toggles from 8 connections on 8 modules.
import { Buffer } from 'node:buffer';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createBenchSchema } from './pg-schema.js';
import { cpuSecondsOf, memoryOf } from './proc.js';
import { createAdmin, login, startSiteward } from './siteward-process.js';
import { moduleAll, parallelToggles, settings, TOGGLE_CANDIDATES } from './scenarios.js';

// `SITEWARD_BENCH_PG=sqlite`: the same runs on SQLite, for the comparison.
const PG = process.env.SITEWARD_BENCH_PG;
if (!PG) throw new Error('set SITEWARD_BENCH_PG=postgres://… (or =sqlite)');
const SQLITE = PG === 'sqlite';
const N = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 3);
const APP = `swpgcost${process.pid}`;

const schema = SQLITE ? null : await createBenchSchema(PG);
const url = schema ? new URL(schema.url) : null;
url?.searchParams.set('application_name', APP);
// PGCOST_HOSTS=2: the same server listed twice with target_session_attrs=read-write, so the store
// chooses its host (src/store/pg-hosts.ts) instead of using the one-host path.
if (url && process.env.PGCOST_HOSTS === '2') url.searchParams.set('target_session_attrs', 'read-write');
const databaseUrl =
  url && process.env.PGCOST_HOSTS === '2' ? url.toString().replace(`@${url.host}/`, `@${url.host},${url.host}/`) : url?.toString();
const dataDir = mkdtempSync(join(tmpdir(), 'sw-pgcost-'));
const env = databaseUrl ? { SITEWARD_DATABASE_URL: databaseUrl } : {};
const admin = SQLITE ? null : new pg.Client({ connectionString: PG });
await admin?.connect();
let server;
try {
  await createAdmin({ dataDir, login: 'benchadmin', email: 'b@example.org', password: 'bench-password-1', env });
  // PGCOST_SERVER_NODE_OPTIONS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) goes to the server only.
  server = await startSiteward({
    dataDir,
    env: { ...env, ...(process.env.PGCOST_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.PGCOST_SERVER_NODE_OPTIONS } : {}) },
  });
  const auth = (await login(server.baseUrl, 'benchadmin', 'bench-password-1')).headers;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const send = (req) =>
    new Promise((resolve, reject) => {
      const r = http.request(
        `${server.baseUrl}${req.path}`,
        { method: req.method, headers: req.body ? { ...req.headers, 'Content-Length': Buffer.byteLength(req.body) } : req.headers, agent },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode >= 200 && res.statusCode < 300 ? resolve() : reject(new Error(`${req.method} ${req.path}: ${res.statusCode}`)),
          );
        },
      );
      r.on('error', reject);
      r.end(req.body);
    });
  const backends = async () =>
    !admin
      ? []
      : (
          await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1 OR application_name LIKE $2', [
            APP,
            `listen siteward_${schema?.schema}`,
          ])
        ).rows.map((r) => r.pid);
  /** Runs `perConn[i]` cyclically on connection i until N requests in all; CPU µs per request. */
  async function measure(perConn) {
    // Backends come and go (the pool closes idle connections): those present at the end count
    // from their CPU at the start, or from zero when they started during the run.
    const before = new Map((await backends()).map((pid) => [pid, cpuSecondsOf([pid])]));
    const cpu0 = cpuSecondsOf(server.servingPids());
    const t0 = process.hrtime.bigint();
    let left = N;
    await Promise.all(
      perConn.map(async (reqs) => {
        for (let i = 0; left > 0; i++) {
          left--;
          await send(reqs[i % reqs.length]);
        }
      }),
    );
    const secs = Number(process.hrtime.bigint() - t0) / 1e9;
    const node = ((cpuSecondsOf(server.servingPids()) - cpu0) * 1e6) / N;
    let dbSecs = 0;
    // (A backend that exited during the run is lost: its CPU can no longer be read.)
    for (const pid of await backends()) dbSecs += cpuSecondsOf([pid]) - (before.get(pid) ?? 0);
    const db = (dbSecs * 1e6) / N;
    return { node, db, rps: N / secs };
  }
  const toggles8 = parallelToggles(auth, TOGGLE_CANDIDATES.slice(0, 8));
  const scenarios = [
    ['GET settings', [settings(auth).requests]],
    ['GET module/all', [moduleAll(auth).requests]],
    ['toggle markdown (1 conn)', [[0, 1].map((i) => ({ ...toggles8.connectionRequests[0][i] }))]],
    ['toggles 8 conns / 8 modules', toggles8.connectionRequests],
    // The bench's load: 64 connections (for the RSS line).
    ['GET settings, 64 conns', Array.from({ length: 64 }, () => settings(auth).requests)],
  ];
  // PGCOST_ONLY=<text>: only the scenarios whose name contains it.
  if (process.env.PGCOST_ONLY)
    scenarios.splice(0, scenarios.length, ...scenarios.filter(([name]) => name.includes(process.env.PGCOST_ONLY)));
  // PGCOST_RSS=1: the server's peak RSS after each scenario's runs.
  const rssAfter = new Map();
  const results = new Map(scenarios.map(([name]) => [name, []]));
  for (const [, perConn] of scenarios) for (const reqs of perConn) for (const r of reqs) await send(r); // warm-up, and every pair starts active
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, perConn] of scenarios) {
      results.get(name).push(await measure(perConn));
      rssAfter.set(
        name,
        server
          .servingPids()
          .map((pid) => memoryOf(pid)?.hwmMB.toFixed(0))
          .join(', '),
      );
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`N=${N} requests per run, ${ROUNDS} rounds; median CPU µs/request (server process, its PostgreSQL backends), req/s (noisy)`);
  for (const [name, rs] of results) {
    console.log(
      `${name.padEnd(30)} peak RSS after ${rssAfter.get(name)} MB  node ${median(rs.map((r) => r.node))
        .toFixed(0)
        .padStart(5)}  pg ${median(rs.map((r) => r.db))
        .toFixed(0)
        .padStart(5)}  req/s ${median(rs.map((r) => r.rps)).toFixed(0)}`,
    );
  }
  const mb = (m) => (m ? `${m.rssMB.toFixed(0)} (peak ${m.hwmMB.toFixed(0)})` : '-');
  const pgRss = !admin
    ? []
    : (await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [APP])).rows.map((r) => memoryOf(r.pid));
  console.log(
    `RSS MB: server ${server
      .servingPids()
      .map((pid) => mb(memoryOf(pid)))
      .join(', ')}; ${pgRss.length} backends ${pgRss.map(mb).join(', ')}`,
  );
  agent.destroy();
} finally {
  await server?.stop();
  await admin?.end();
  await schema?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
