// `npm run bench`: starts Siteward (and a bare node:http baseline) as child processes, drives
// them with autocannon from another child process, and prints/writes the performance budget.
// Unattended and bounded: every child is killed on exit, error or SIGINT, and a deadline stops
// the whole run if anything hangs. See bench/README.md for what is measured and why.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminBundleSize, adminFirstPaint } from './admin-page.js';
import { Baselines, measureScenario, probe, settings as load } from './measure.js';
import { installExitHandlers } from './proc.js';
import { comparisons, format, targets, withRatios, writeJson } from './report.js';
import { mainScenarios, moduleAll, settings } from './scenarios.js';
import { seedUsersAndSessions } from './seed-sessions.js';
import { createAdmin, login, startSiteward } from './siteward-process.js';

const started = Date.now();
const PLUGIN = fileURLToPath(new URL('./fixtures/many-routes-plugin.js', import.meta.url));
const ADMIN = { login: 'benchadmin', email: 'bench@example.org', password: randomBytes(12).toString('base64url') };
const LOAD_RUNS = 22; // upper bound: 8 scenarios + their baselines + 5 scaling runs (+ the admin page's first paint)

installExitHandlers({ deadlineMs: (90 + LOAD_RUNS * (load.warmup + load.duration + 4)) * 1000 });

const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'siteward-bench-'));
if (!process.env.BENCH_KEEP) process.on('exit', () => rmSync(tmpRoot, { recursive: true, force: true }));

const rows = [];
const failures = [];
const restarts = [];
const baselines = new Baselines();
const elapsed = () => `${String(Math.round((Date.now() - started) / 1000)).padStart(3)}s`;
const log = (line) => console.log(`[${elapsed()}] ${line}`);

/** Runs one part of the bench; a failure is recorded and reported, and the rest still runs. */
async function stage(name, fn) {
  try {
    await fn();
  } catch (error) {
    failures.push({ stage: name, error: error.message });
    log(`FAILED ${name}: ${error.message}`);
  }
}

/** A new data dir holding only the bench administrator, created through the CLI. */
async function freshDataDir(name) {
  const dataDir = path.join(tmpRoot, name);
  mkdirSync(dataDir);
  await createAdmin({ dataDir, ...ADMIN });
  return dataDir;
}

/**
 * Runs measurements, each `[name, (server, authHeaders) => Promise]`, on one logged-in Siteward
 * started with `options`. If the server is found dead (it crashed, or was stopped from outside
 * the bench), the measurement is retried once on a fresh server and the restart is reported:
 * one stray kill should not cost the rest of the group, and a half-dead run is never reported.
 */
async function onServer(options, measurements) {
  let server = null;
  let auth;
  try {
    for (const [name, measure] of measurements) {
      await stage(name, async () => {
        for (let attempt = 1; ; attempt++) {
          if (!server || server.exitInfo()) {
            await server?.stop();
            server = await startSiteward(options);
            auth = (await login(server.baseUrl, ADMIN.login, ADMIN.password)).headers;
          }
          try {
            return await measure(server, auth);
          } catch (error) {
            const exit = server.exitInfo();
            if (!exit || attempt >= 2) throw exit ? new Error(`${error.message}\n  ${exit}`) : error;
            restarts.push({ stage: name, reason: exit.split('\n')[0] });
            log(`${name}: ${exit.split('\n')[0]}. Restarting it and measuring again.`);
          }
        }
      });
    }
  } finally {
    await server?.stop();
  }
}

/**
 * Measures one scenario and records its row. Baselines are measured for the main scenarios
 * only; the scaling rows reuse one when the response size matches (it normally does).
 */
async function bench(server, scenario, { group, name = scenario.name, measureBaseline = false }) {
  const sizes = await probe(server.baseUrl, scenario);
  const measured = await measureScenario(server, scenario);
  if (server.exitInfo()) throw new Error('Siteward stopped during the load run');
  const baseline = measureBaseline ? await baselines.measure(scenario, sizes) : baselines.cached(sizes, scenario.connections);
  const row = withRatios({ name, group, toggle: Boolean(scenario.toggle), sizes, ...measured }, baseline);
  rows.push(row);
  const base = baseline ? `; baseline ${Math.round(baseline.reqPerSec)} req/s p99 ${baseline.p99} ms` : '';
  log(`${name}: ${Math.round(row.reqPerSec)} req/s, p99 ${row.p99} ms, ${row.errors} errors, RSS ${row.rssMB.toFixed(0)} MB${base}`);
}

log(`data under ${tmpRoot}; ${load.connections} connections, ${load.duration} s per run + ${load.warmup} s warm-up`);
await baselines.start();

const mainDir = await freshDataDir('main');

// The single-server scenarios, each with its baseline. Scenario i is rebuilt from the current
// auth headers, which change if the server had to be restarted.
await onServer(
  { dataDir: mainDir },
  mainScenarios({}).map((s, i) => [s.name, (server, auth) => bench(server, mainScenarios(auth)[i], { group: 'main', measureBaseline: true })]),
);

// The admin page: JavaScript of the first screen (from the build) and first contentful paint.
const admin = { bundle: null, fcpMs: null };
await stage('admin bundle size', async () => {
  admin.bundle = adminBundleSize();
  log(`admin first screen: JS ${(admin.bundle.js.gzip / 1024).toFixed(1)} KB gzipped (${(admin.bundle.js.raw / 1024).toFixed(0)} KB raw), CSS ${(admin.bundle.css.gzip / 1024).toFixed(1)} KB gzipped`);
});
await onServer({ dataDir: mainDir }, [
  [
    'admin first paint',
    async (server, auth) => {
      admin.fcpMs = await adminFirstPaint(server.baseUrl, auth.Cookie);
      log(admin.fcpMs === null ? 'admin first contentful paint: not measured (no Chromium)' : `admin first contentful paint: ${admin.fcpMs.toFixed(0)} ms (median of 5)`);
    },
  ],
]);

// Workers are compared on the small settings read: on module/all's 47 KB answers the load
// generator itself needs about a core, so a second worker has no CPU left to use (measured:
// autocannon at 0.97 cores; each worker at 0.39).
await onServer({ dataDir: mainDir, workers: 2 }, [
  ['2 workers', (server, auth) => bench(server, settings(auth), { group: 'workers', name: 'GET settings, 2 workers' })],
]);

for (const routes of [25, 1000]) {
  await onServer({ dataDir: mainDir, plugins: PLUGIN, env: { BENCH_ROUTES: String(routes) } }, [
    [
      `${routes} routes`,
      async (server, auth) => {
        // Proves the plugin is loaded with all its routes before its cost is measured.
        const last = { method: 'GET', path: `/wp-json/bench/v1/r${routes - 1}/7`, headers: {} };
        await probe(server.baseUrl, { name: 'bench plugin', requests: [last], expect: 200 });
        await bench(server, moduleAll(auth), { group: 'routes', name: `module/all, ${routes} routes` });
      },
    ],
  ]);
}

for (const [count, label] of [[10, '10'], [100_000, '100k']]) {
  let dataDir;
  await stage(`seed ${label} sessions`, async () => {
    const dir = await freshDataDir(`sessions-${label}`);
    const seeded = seedUsersAndSessions(path.join(dir, 'siteward.db'), count);
    log(`seeded ${count} users+sessions: ${seeded.users} users, ${seeded.sessions} sessions in the store`);
    dataDir = dir; // only a fully seeded store is measured
  });
  if (!dataDir) continue;
  await onServer({ dataDir }, [
    [`${label} sessions`, (server, auth) => bench(server, settings(auth), { group: 'sessions', name: `settings, ${label} sessions` })],
  ]);
}

await baselines.stop();

const cmp = comparisons(rows);
const report = {
  meta: {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.availableParallelism(),
    connections: load.connections,
    duration: load.duration,
    warmup: load.warmup,
    totalSeconds: (Date.now() - started) / 1000,
  },
  rows,
  comparisons: cmp,
  admin,
  targets: [
    ...targets(rows, cmp),
    {
      name: 'admin first-screen JavaScript ≤ 300 KB gzipped',
      value: admin.bundle ? Number((admin.bundle.js.gzip / 1024).toFixed(1)) : null,
      limit: 300,
      unit: ' KB',
      status: admin.bundle ? (admin.bundle.js.gzip <= 300 * 1024 ? 'PASS' : 'FAIL') : 'N/A',
      skewed: false,
    },
    // Measured and shown, without a budget of its own.
    { name: 'admin first contentful paint (Chromium, median of 5)', value: admin.fcpMs === null ? null : Math.round(admin.fcpMs), limit: null, unit: ' ms', status: admin.fcpMs === null ? 'N/A' : 'INFO', skewed: false },
  ],
  restarts,
  failures,
};
console.log(`\n${format(report)}`);
console.log(`\nJSON: ${path.relative(process.cwd(), writeJson(report))}`);
process.exit(failures.length ? 1 : 0);
