// `npm run bench`: starts Siteward (and a bare node:http server for the floors) as child
// processes, drives them with autocannon from another child process, and prints/writes the
// performance budget. With SITEWARD_BENCH_PG it also runs Siteward on PostgreSQL.
// Unattended and bounded: every child is killed on exit, error or SIGINT, and a deadline stops
// the whole run if anything hangs. See bench/README.md for what is measured and why.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminBundleSize, adminFirstPaint } from './admin-page.js';
import { Baselines, capture, measureScenario, probe, settings as load } from './measure.js';
import { createBenchSchema } from './pg-schema.js';
import { installExitHandlers } from './proc.js';
import { comparisons, format, PG_ROWS, targets, withRatios, writeJson } from './report.js';
import {
  mainScenarios,
  moduleAll,
  parallelToggles,
  settings,
  SETTINGS_CURRENT_ENV,
  settingsCurrent,
  TOGGLE_CANDIDATES,
  userUpdatesBatch,
  userUpdatesOneByOne,
} from './scenarios.js';
import { seedUsersAndSessions, seedUsersAndSessionsPg } from './seed-sessions.js';
import { request } from './http-client.js';
import { createAdmin, login, startSiteward } from './siteward-process.js';

const started = Date.now();
const PLUGIN = fileURLToPath(new URL('./fixtures/many-routes-plugin.js', import.meta.url));
const ADMIN = { login: 'benchadmin', email: 'bench@example.org', password: `pw${randomBytes(12).toString('base64url')}` };
// Upper bound: 10 scenarios + their 10 identical-bytes floors + at most 10 body-only floors,
// 2 batch rows, 5 scaling runs, 4 PostgreSQL runs (+ the admin page's first paint).
const LOAD_RUNS = 41;
// BENCH_ONLY=<regex>: only the rows (and stages) whose name matches, e.g. BENCH_ONLY='users|batch'.
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
const wanted = (name) => ONLY === null || ONLY.test(name);
const PG_BASE = process.env.SITEWARD_BENCH_PG;

// The fixed part covers server starts, the admin page's paint and seeding 2 × 100k sessions.
installExitHandlers({ deadlineMs: (150 + LOAD_RUNS * (load.warmup + load.duration + 4)) * 1000 });

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

/** A new data dir holding only the bench administrator, created through the CLI (`env`: e.g. the PostgreSQL URL). */
async function freshDataDir(name, env = {}) {
  const dataDir = path.join(tmpRoot, name);
  mkdirSync(dataDir);
  await createAdmin({ dataDir, ...ADMIN, env });
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
 * Measures one scenario and records its row. At its start Siteward's answers to the scenario's
 * requests are captured (raw bytes); the main scenarios then measure their two floors: the
 * replay of those answers (identical bytes, the targets) and the body-only one (issue 6's).
 * The other rows reuse a floor measured for answers of the same statuses and sizes.
 */
async function bench(server, scenario, { group, name = scenario.name, measureBaseline = false, ownFloor = false }) {
  const { sizes, responses } = await capture(server.baseUrl, scenario);
  const measured = await measureScenario(server, scenario);
  if (server.exitInfo()) throw new Error('Siteward stopped during the load run');
  const floor =
    measureBaseline || ownFloor
      ? await baselines.measureReplay(scenario, responses, { fresh: ownFloor })
      : baselines.cachedReplay(responses, scenario.connections);
  const bodyOnly = measureBaseline ? await baselines.measure(scenario, sizes) : baselines.cached(sizes, scenario.connections);
  const row = withRatios(
    {
      name,
      group,
      toggle: Boolean(scenario.toggle),
      logicalPerRequest: scenario.logicalPerRequest ?? 1,
      sizes,
      wireBytes: responses.map((r) => r.raw.length),
      ...measured,
    },
    floor,
    bodyOnly,
  );
  rows.push(row);
  const base = floor ? `; floor ${Math.round(floor.reqPerSec)} req/s p99 ${floor.p99.toFixed(3)} ms (×${row.ratio.toFixed(2)})` : '';
  const bare = bodyOnly ? `; body-only ${Math.round(bodyOnly.reqPerSec)} req/s (×${row.bodyOnlyRatio.toFixed(2)})` : '';
  log(
    `${name}: ${Math.round(row.reqPerSec)} req/s, p99 ${row.p99.toFixed(3)} ms, ${row.cpuUsPerReq?.toFixed(0)} µs/req, ${row.errors} errors, RSS ${row.rssMB.toFixed(0)} MB${base}${bare}`,
  );
}

/**
 * The first `count` modules of TOGGLE_CANDIDATES that this server activates and deactivates
 * with a 2xx (each is left inactive).
 */
async function toggleableModules(server, auth, count) {
  const found = [];
  for (const slug of TOGGLE_CANDIDATES) {
    if (found.length === count) break;
    let ok = true;
    for (const active of [true, false]) {
      const res = await request(`${server.baseUrl}/wp-json/jetpack/v4/module/${slug}/active`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ active }),
      });
      ok &&= res.status >= 200 && res.status < 300;
    }
    if (ok) found.push(slug);
  }
  if (found.length < count)
    throw new Error(`only ${found.length} of the candidate modules toggle with a 2xx (${found.join(', ')}); need ${count}`);
  return found;
}

log(`data under ${tmpRoot}; ${load.connections} connections, ${load.duration} s per run + ${load.warmup} s warm-up`);
await baselines.start();

const mainDir = await freshDataDir('main');

// The single-server scenarios, each with its baseline. Scenario i is rebuilt from the current
// auth headers, which change if the server had to be restarted.
await onServer(
  { dataDir: mainDir },
  mainScenarios({})
    .map((s, i) => [s.name, i])
    .filter(([name]) => wanted(name))
    .map(([name, i]) => [name, (server, auth) => bench(server, mainScenarios(auth)[i], { group: 'main', measureBaseline: true })]),
);

// The 4.3+ settings object, on a server of its own (the shape is a server setting), with its own floor.
if (wanted(settingsCurrent({}).name)) {
  const currentDir = await freshDataDir('settings-current');
  await onServer({ dataDir: currentDir, env: SETTINGS_CURRENT_ENV }, [
    [settingsCurrent({}).name, (server, auth) => bench(server, settingsCurrent(auth), { group: 'main', measureBaseline: true })],
  ]);
}

/**
 * `count` users to update (created once through wp/v2/users; the ids of those already there on
 * a restarted server), checked to take the batch's updates with a 200 each.
 */
async function benchUsers(server, auth, count) {
  const ids = [];
  for (let i = 0; i < count; i++) {
    const login = `benchuser${i}`;
    const json = { ...auth, 'Content-Type': 'application/json' };
    const found = await request(`${server.baseUrl}/wp-json/wp/v2/users?slug=${login}&_fields=id`, { headers: auth });
    const existing = JSON.parse(found.text);
    if (Array.isArray(existing) && existing.length === 1) {
      ids.push(existing[0].id);
      continue;
    }
    const res = await request(`${server.baseUrl}/wp-json/wp/v2/users`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        username: login,
        email: `${login}@example.org`,
        password: `${randomBytes(12).toString('base64url')}-Aa1`,
        roles: ['author'],
      }),
    });
    if (res.status !== 201) throw new Error(`creating ${login} answered ${res.status}: ${res.text.slice(0, 200)}`);
    ids.push(JSON.parse(res.text).id);
  }
  const check = userUpdatesBatch(auth, ids).requests[0];
  const res = await request(`${server.baseUrl}${check.path}`, { method: 'POST', headers: check.headers, body: check.body });
  const statuses = JSON.parse(res.text).responses?.map((r) => r.status) ?? [];
  if (res.status !== 207 || statuses.length !== count || statuses.some((st) => st !== 200)) {
    throw new Error(
      `the batch of user updates answered ${res.status} with item statuses ${JSON.stringify(statuses)}: ${res.text.slice(0, 300)}`,
    );
  }
  return ids;
}

// A batch/v1 of 10 user updates against the same 10 sent one by one: CPU per logical update.
if (wanted('batch') || wanted('one by one')) {
  await onServer({ dataDir: mainDir }, [
    [
      'batch/v1 vs one by one',
      async (server, auth) => {
        const ids = await benchUsers(server, auth, 10);
        await bench(server, userUpdatesOneByOne(auth, ids), { group: 'batch' });
        await bench(server, userUpdatesBatch(auth, ids), { group: 'batch' });
      },
    ],
  ]);
}

// The admin page: JavaScript of the first screen (from the build) and first contentful paint.
const admin = { bundle: null, fcpMs: null };
if (wanted('admin'))
  await stage('admin bundle size', async () => {
    admin.bundle = adminBundleSize();
    log(
      `admin first screen: JS ${(admin.bundle.js.gzip / 1024).toFixed(1)} KB gzipped (${(admin.bundle.js.raw / 1024).toFixed(0)} KB raw), CSS ${(admin.bundle.css.gzip / 1024).toFixed(1)} KB gzipped`,
    );
  });
if (wanted('admin'))
  await onServer({ dataDir: mainDir }, [
    [
      'admin first paint',
      async (server, auth) => {
        admin.fcpMs = await adminFirstPaint(server.baseUrl, auth.Cookie);
        log(
          admin.fcpMs === null
            ? 'admin first contentful paint: not measured (no Chromium)'
            : `admin first contentful paint: ${admin.fcpMs.toFixed(0)} ms (median of 5)`,
        );
      },
    ],
  ]);

// Workers are compared on the small settings read: on module/all's 47 KB answers the load
// generator itself needs about a core, so a second worker has no CPU left to use (measured:
// autocannon at 0.97 cores; each worker at 0.39).
if (wanted('GET settings, 2 workers'))
  await onServer({ dataDir: mainDir, workers: 2 }, [
    ['2 workers', (server, auth) => bench(server, settings(auth), { group: 'workers', name: 'GET settings, 2 workers' })],
  ]);

for (const routes of [25, 1000]) {
  if (!wanted(`module/all, ${routes} routes`)) continue;
  await onServer({ dataDir: mainDir, plugins: PLUGIN, env: { BENCH_ROUTES: String(routes) } }, [
    [
      `${routes} routes`,
      async (server, auth) => {
        // Proves the plugin is loaded with all its routes before its cost is measured.
        const last = { method: 'GET', path: `/wp-json/bench/v1/r${routes - 1}/7`, headers: {} };
        await probe(server.baseUrl, { name: 'bench plugin', requests: [last], expect: 200 });
        // Each of the pair gets a floor of its own moment (see comparisons() in report.js).
        await bench(server, moduleAll(auth), { group: 'routes', name: `module/all, ${routes} routes`, ownFloor: true });
      },
    ],
  ]);
}

for (const [count, label] of [
  [10, '10'],
  [100_000, '100k'],
]) {
  if (!wanted(`settings, ${label} sessions`)) continue;
  let dataDir;
  await stage(`seed ${label} sessions`, async () => {
    const dir = await freshDataDir(`sessions-${label}`);
    const seeded = seedUsersAndSessions(path.join(dir, 'siteward.db'), count);
    log(`seeded ${count} users+sessions: ${seeded.users} users, ${seeded.sessions} sessions in the store`);
    dataDir = dir; // only a fully seeded store is measured
  });
  if (!dataDir) continue;
  await onServer({ dataDir }, [
    [
      `${label} sessions`,
      (server, auth) => bench(server, settings(auth), { group: 'sessions', name: `settings, ${label} sessions`, ownFloor: true }),
    ],
  ]);
}

/**
 * PostgreSQL against SQLite on the same reads, measured in alternation: a SQLite server on the
 * main data dir runs beside the PostgreSQL one and each round loads one then the other (order
 * swapped every round), so that both see the same moment of a shared machine. The rows of the
 * table run minutes apart, and on this VM a server's CPU per request moves 13-17 µs from one
 * few-second window to the next: single runs compared across minutes said more about the
 * moment than about the store (docs/performance.md 23).
 */
const PG_VS_SQLITE_ROUNDS = 4;
async function pgVsSqlite(pgServer, pgAuth) {
  const sqliteServer = await startSiteward({ dataDir: mainDir });
  try {
    const sqliteAuth = (await login(sqliteServer.baseUrl, ADMIN.login, ADMIN.password)).headers;
    const sides = [
      { name: 'sqlite', server: sqliteServer, auth: sqliteAuth },
      { name: 'pg', server: pgServer, auth: pgAuth },
    ];
    const times = { duration: Math.max(2, Math.round(load.duration / 2)), warmup: 1 };
    for (const [key, scenario] of [
      ['settings', settings],
      ['moduleAll', moduleAll],
    ]) {
      const rounds = [];
      for (let round = 0; round < PG_VS_SQLITE_ROUNDS; round++) {
        const measured = {};
        for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
          const r = await measureScenario(side.server, scenario(side.auth), times);
          if (side.server.exitInfo()) throw new Error(`the ${side.name} server stopped during the interleaved comparison`);
          measured[side.name] = { reqPerSec: r.reqPerSec, cpuUsPerReq: r.cpuUsPerReq, otherCores: r.otherCores, errors: r.errors };
        }
        rounds.push(measured);
      }
      postgres.interleaved[key] = { seconds: times.duration, rounds };
      const ratios = rounds.map((r) => (r.pg.reqPerSec / r.sqlite.reqPerSec).toFixed(2)).join(', ');
      log(`PG vs SQLite, ${key}, ${PG_VS_SQLITE_ROUNDS} rounds of ${times.duration} s each: req/s ratios ${ratios}`);
    }
  } finally {
    await sqliteServer.stop();
  }
}

// PostgreSQL: the same reads in a schema of the run's own (created here, dropped at the end),
// then 8 connections toggling 8 modules, then the store grown to 100k sessions.
const postgres = { skipped: null, schema: null, interleaved: {} };
if (!wanted('PG')) {
  postgres.skipped = 'skipped: not in BENCH_ONLY';
} else if (!PG_BASE) {
  postgres.skipped =
    'skipped: set SITEWARD_BENCH_PG=postgres://… (e.g. postgres://postgres@127.0.0.1:5432/test) to measure Siteward on PostgreSQL';
  log(`PostgreSQL ${postgres.skipped}`);
} else {
  let pg = null;
  await stage('PostgreSQL schema', async () => {
    pg = await createBenchSchema(PG_BASE);
    postgres.schema = pg.schema;
    log(`PostgreSQL: schema ${pg.schema} on ${new URL(PG_BASE).host}`);
  });
  if (pg) {
    try {
      const env = { SITEWARD_DATABASE_URL: pg.url };
      let dataDir;
      await stage('PG seed 10 sessions', async () => {
        const dir = await freshDataDir('pg', env);
        const seeded = await seedUsersAndSessionsPg(pg.url, 10);
        log(`PG: seeded 10 users+sessions: ${seeded.users} users, ${seeded.sessions} sessions in the store`);
        dataDir = dir;
      });
      if (dataDir) {
        await onServer({ dataDir, env }, [
          ['PG settings', (server, auth) => bench(server, settings(auth), { group: 'postgres', name: PG_ROWS.settings[0] })],
          ['PG module/all', (server, auth) => bench(server, moduleAll(auth), { group: 'postgres', name: PG_ROWS.moduleAll[0] })],
          ['PG vs SQLite, interleaved', (server, auth) => pgVsSqlite(server, auth)],
          [
            'PG toggles',
            async (server, auth) => {
              const modules = await toggleableModules(server, auth, 8);
              log(`PG toggles on ${modules.join(', ')}`);
              await bench(server, parallelToggles(auth, modules), { group: 'postgres', name: PG_ROWS.toggles });
            },
          ],
        ]);
        let grown = false;
        await stage('PG seed 100k sessions', async () => {
          const t0 = Date.now();
          const seeded = await seedUsersAndSessionsPg(pg.url, 100_000 - 10);
          log(
            `PG: seeded ${100_000 - 10} more users+sessions in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${seeded.users} users, ${seeded.sessions} sessions`,
          );
          grown = true;
        });
        if (grown) {
          await onServer({ dataDir, env }, [
            [
              'PG 100k sessions',
              (server, auth) => bench(server, settings(auth), { group: 'postgres', name: PG_ROWS.sessions[1], ownFloor: true }),
            ],
          ]);
        }
      }
    } finally {
      await stage('PostgreSQL schema drop', () => pg.drop());
    }
  }
}

await baselines.stop();

const cmp = comparisons(rows, { interleaved: postgres.interleaved });
const report = {
  meta: {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.availableParallelism(),
    connections: load.connections,
    duration: load.duration,
    warmup: load.warmup,
    totalSeconds: (Date.now() - started) / 1000,
    postgres,
  },
  rows,
  comparisons: cmp,
  admin,
  targets: [
    ...targets(rows, cmp, { pgSkipped: Boolean(postgres.skipped) }),
    {
      name: 'admin first-screen JavaScript ≤ 300 KB gzipped',
      value: admin.bundle ? Number((admin.bundle.js.gzip / 1024).toFixed(1)) : null,
      limit: 300,
      unit: ' KB',
      status: admin.bundle ? (admin.bundle.js.gzip <= 300 * 1024 ? 'PASS' : 'FAIL') : 'N/A',
      skewed: false,
    },
    // Measured and shown, without a budget of its own.
    {
      name: 'admin first contentful paint (Chromium, median of 5)',
      value: admin.fcpMs === null ? null : Math.round(admin.fcpMs),
      limit: null,
      unit: ' ms',
      status: admin.fcpMs === null ? 'N/A' : 'INFO',
      skewed: false,
    },
  ],
  restarts,
  failures,
};
console.log(`\n${format(report)}`);
console.log(`\nJSON: ${path.relative(process.cwd(), writeJson(report))}`);
process.exit(failures.length ? 1 : 0);
