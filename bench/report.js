// Turns the measurements into the comparisons, the PASS/FAIL targets, the printed table and
// bench/results/latest.json. Pure functions apart from writeJson.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));

/** Above this much foreign CPU during a run (cores), its numbers are flagged as skewed. */
const NOISY_CORES = 0.1;
/** Whether any of these runs (or their floors) shared the machine with other busy processes. */
const skewed = (...rows) =>
  rows.some((r) => r && (r.otherCores > NOISY_CORES || r.baseline?.otherCores > NOISY_CORES || r.bodyOnly?.otherCores > NOISY_CORES));

const round = (n, digits = 2) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);
const byName = (rows, name) => rows.find((r) => r.name === name);

const floorOf = (f) =>
  f && {
    key: f.key,
    kind: f.kind,
    reqPerSec: f.reqPerSec,
    p50: f.p50,
    p99: f.p99,
    errors: f.errors,
    otherCores: f.otherCores,
    cpuUsPerReq: f.cpuUsPerReq,
  };

/**
 * Adds the floors and ratios to a row. `baseline` is the identical-bytes floor (the replay of
 * Siteward's own answers: the targets are judged on it); `bodyOnly` is issue 6's floor (same
 * status and body size, 2 headers), reported beside it for comparison.
 */
export function withRatios(row, baseline, bodyOnly = null) {
  // A row loaded in alternated rounds with its floor (run.js againstFloor): each ratio is the
  // median of the per-round ones, with a 90 % interval of the req/s one.
  const rounds = baseline ? row.rounds : undefined;
  const perRound = (ours, floor) => median(rounds.map((r) => r[ours] / r[floor]));
  const ratios = rounds?.map((r) => r.reqPerSec / r.floorReqPerSec);
  return {
    ...row,
    baseline: floorOf(baseline) ?? null,
    ratio: rounds ? median(ratios) : baseline ? row.reqPerSec / baseline.reqPerSec : null,
    ...(rounds && { ratios, ratioCi: medianInterval(ratios) }),
    p99Ratio: rounds ? perRound('p99', 'floorP99') : baseline ? row.p99 / baseline.p99 : null,
    // The floor's CPU per request over ours: what the req/s ratio would be if both were bound by
    // one core of their own. Printed beside the ratio (not judged): on a shared machine it moves
    // far less than req/s, which the neighbours' load skews run by run.
    cpuRatio: rounds?.every((r) => r.cpuUsPerReq && r.floorCpuUsPerReq)
      ? perRound('floorCpuUsPerReq', 'cpuUsPerReq')
      : baseline && row.cpuUsPerReq && baseline.cpuUsPerReq
        ? baseline.cpuUsPerReq / row.cpuUsPerReq
        : null,
    bodyOnly: floorOf(bodyOnly) ?? null,
    bodyOnlyRatio: bodyOnly ? row.reqPerSec / bodyOnly.reqPerSec : null,
    bodyOnlyP99Ratio: bodyOnly ? row.p99 / bodyOnly.p99 : null,
  };
}

/** The PostgreSQL rows' names (run.js); their comparisons are alternated rounds, not these rows. */
export const PG_ROWS = {
  settings: 'PG settings, 10 sessions',
  moduleAll: 'PG GET module/all',
  sessions100k: 'PG settings, 100k sessions',
  toggles: 'PG POST toggles, 8 conns on 8 modules',
};

export const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * A 90 % percentile-bootstrap interval of the median of `xs` (2,000 resamples). The generator is
 * seeded from the values themselves, so one run's data always gives the same interval (the
 * report and results/latest.json agree, and a test can pin it). Printed beside each alternated
 * comparison so that a reader sees how far the rounds leave the verdict from its limit.
 */
export function medianInterval(xs, { resamples = 2000, level = 0.9 } = {}) {
  if (xs.length < 2 || !xs.every(Number.isFinite)) return null;
  let seed = 0x9e3779b9;
  for (const x of xs) seed = (seed ^ Math.round(x * 1e6)) >>> 0;
  const next = () => {
    // mulberry32: small, fast, good enough to resample eight numbers.
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const medians = [];
  for (let i = 0; i < resamples; i++) medians.push(median(Array.from(xs, () => xs[Math.floor(next() * xs.length)])));
  medians.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return [medians[Math.floor(tail * resamples)], medians[Math.ceil((1 - tail) * resamples) - 1]];
}

/**
 * Two servers compared over alternated rounds (run.js `alternate`): per round, `b`'s req/s and
 * CPU per request over `a`'s measured right before or after it; the medians are the figures.
 */
function alternatedPair(runs, a, b) {
  const rounds = runs?.rounds;
  if (!rounds?.length || !rounds.every((r) => r[a] && r[b])) return null;
  const all = rounds.flatMap((r) => [r[a], r[b]]);
  const reqRatios = rounds.map((r) => r[b].reqPerSec / r[a].reqPerSec);
  const cpuRatios = rounds.map((r) => r[b].cpuUsPerReq / r[a].cpuUsPerReq);
  return {
    rounds: rounds.length,
    seconds: runs.seconds,
    reqA: median(rounds.map((r) => r[a].reqPerSec)),
    reqB: median(rounds.map((r) => r[b].reqPerSec)),
    cpuA: median(rounds.map((r) => r[a].cpuUsPerReq)),
    cpuB: median(rounds.map((r) => r[b].cpuUsPerReq)),
    reqRatios,
    cpuRatios,
    reqRatio: median(reqRatios),
    cpuRatio: median(cpuRatios),
    reqRatioCi: medianInterval(reqRatios),
    cpuRatioCi: medianInterval(cpuRatios),
    errors: all.reduce((n, r) => n + r.errors, 0),
    skewed: all.some((r) => r.otherCores > NOISY_CORES),
  };
}

/**
 * The scaling comparisons: loss = how much slower the big case is; gain = workers speed-up.
 * `alternated`: the alternated rounds of the server pairs (run.js), by comparison. A pair
 * without them (its stage failed or was not selected) is not measured: its two table rows,
 * minutes apart, are not a comparison (docs/performance.md 23).
 */
export function comparisons(rows, alternated = {}) {
  /** Cost per request: the servers' CPU per request (steadier than req/s on a shared machine). */
  const pair = (runs, [a, b]) => {
    const alt = alternatedPair(runs, a, b);
    if (!alt) return null;
    return {
      ...alt,
      small: alt.reqA,
      large: alt.reqB,
      lossPct: (1 - alt.reqRatio) * 100,
      cpuSmall: alt.cpuA,
      cpuLarge: alt.cpuB,
      cpuGrowthPct: (alt.cpuRatio - 1) * 100,
      cpuGrowthCi: alt.cpuRatioCi?.map((r) => (r - 1) * 100) ?? null,
    };
  };
  /** PostgreSQL against SQLite: req/s ratio (the target) and CPU per request ratio (steadier). */
  const vsSqlite = (runs) => {
    const alt = alternatedPair(runs, 'sqlite', 'pg');
    if (!alt) return null;
    return { ...alt, pg: alt.reqB, sqlite: alt.reqA, ratio: alt.reqRatio, ratios: alt.reqRatios, cpuPg: alt.cpuB, cpuSqlite: alt.cpuA };
  };
  const one = byName(rows, 'GET settings');
  const two = byName(rows, 'GET settings, 2 workers');
  const batch = rows.find((r) => r.group === 'batch' && r.logicalPerRequest > 1);
  const single = rows.find((r) => r.group === 'batch' && r.logicalPerRequest === 1);
  const perUpdate = (r) => (r && Number.isFinite(r.cpuUsPerReq) ? r.cpuUsPerReq / r.logicalPerRequest : null);
  const pgToggles = byName(rows, PG_ROWS.toggles);
  const mcp = byName(rows, MCP_ROW);
  return {
    // Issue 44: the readonly ability run over REST against its route (module/all) on the
    // abilities server, CPU per request, median of alternated rounds.
    ability: alternatedPair(alternated.abilityVsRoute, 'route', 'ability'),
    mcp: mcp ? { perSec: mcp.expectedPerSec, cpuUsPerReq: mcp.cpuUsPerReq, hwmMB: mcp.hwmMB, skewed: skewed(mcp) } : null,
    // Issue 44: the durable toggle (with its audit event) against the same toggle on the
    // pre-audit checkout (SITEWARD_BENCH_BASELINE), CPU per request, median of alternated rounds.
    toggleBaseline: alternatedPair(alternated.toggleBaseline, 'baseline', 'this'),
    // Issue 38: Basic against the cookie on the same server, req/s and CPU per request, median of alternated rounds.
    basic: alternatedPair(alternated.basic, 'cookie', 'basic'),
    routes: pair(alternated.routes, ['25', '1000']),
    sessions: pair(alternated.sessions, ['10', '100k']),
    // CPU per logical update: a batch/v1 of N user updates against the same N sent one by one.
    batch:
      batch && single
        ? {
            batch: perUpdate(batch),
            oneByOne: perUpdate(single),
            ratio: perUpdate(batch) !== null && perUpdate(single) ? perUpdate(batch) / perUpdate(single) : null,
            size: batch.logicalPerRequest,
            skewed: skewed(batch, single),
          }
        : null,
    workers:
      one && two
        ? {
            one: one.reqPerSec,
            two: two.reqPerSec,
            gain: two.reqPerSec / one.reqPerSec,
            cpuOne: one.cpuUsPerReq,
            cpuTwo: two.cpuUsPerReq,
            skewed: skewed(one, two),
          }
        : null,
    postgres: {
      settings: vsSqlite(alternated.pgSettings),
      moduleAll: vsSqlite(alternated.pgModuleAll),
      toggles: pgToggles
        ? { perSec: pgToggles.expectedPerSec, p99: pgToggles.p99, cpuUsPerReq: pgToggles.cpuUsPerReq, skewed: skewed(pgToggles) }
        : null,
      sessions: pair(alternated.pgSessions, ['pg', 'pg100k']),
    },
  };
}

/** Ratio targets on the identical-bytes floor (issue 44: every ratio row 0.90): single worker, SQLite. */
export const FLOOR_TARGETS = [
  ['GET / index (anon)', 0.9],
  ['GET settings', 0.9],
  ['GET settings (4.3+ shape)', 0.9],
  ['GET wp/v2/users/me', 0.9],
  ['OPTIONS module/markdown', 0.9],
  ['POST active "maybe" → 400', 0.9],
  ['GET module/all', 0.9],
  ['GET ?rest_route=module/all', 0.9],
  ['GET wp/v2/users (collection)', 0.9],
];
/** Issue 44: the 400 whose whole validation path runs every time. */
export const NO_REPEATS_ROW = 'POST active → 400, no repeats';
export const NO_REPEATS_LIMIT = 0.6;
/** Issue 44: p99 ≤ this × the identical-bytes floor's p99. */
export const P99_LIMIT = 1.25;
/** Issue 44: peak RSS per worker, on the servers that never serve MCP, abilities or the audit export. */
export const RSS_LIMIT_MB = 110;
/** Issue 44's rows on servers of their own (run.js): their RSS is reported beside the main servers', not mixed into it. */
export const OWN_SERVER_GROUPS = ['abilities', 'audit'];
export const MCP_ROW = 'POST MCP tools/call list-modules (Basic)';
export const AUDIT_LIST_ROW = 'GET siteward/v1/audit?per_page=100';
/** The issue's limits for the alternated comparisons. */
export const ABILITY_LIMIT = 1.1;
export const TOGGLE_BASELINE_LIMIT = 1.15;

/**
 * The performance budget of issues 6 and 16. A target whose inputs are missing is N/A (and not
 * a pass). `pgSkipped`: the PostgreSQL targets are N/A because no server was given.
 */
export function targets(rows, cmp, { pgSkipped = false, baselineSkipped = null, auditExport = null } = {}) {
  const t = [];
  const add = (name, value, limit, ok, unit = '', isSkewed = false, info = false) =>
    t.push({
      name,
      value: round(value, unit === '×' ? 3 : 2),
      limit,
      unit,
      status: value === null || value === undefined || !Number.isFinite(value) ? 'N/A' : info ? 'INFO' : ok(value) ? 'PASS' : 'FAIL',
      skewed: isSkewed,
      // Reported without a budget: never part of the run's verdict, measured or not.
      ...(info && { info: true }),
    });
  /** The last target's 90 % interval (of the median of the alternated rounds), in its unit. */
  const interval = (ci) => {
    if (ci) t[t.length - 1].ci = ci.map((v) => round(v, 3));
  };

  for (const [name, limit] of FLOOR_TARGETS) {
    const row = byName(rows, name);
    add(`${name}: req/s ≥ ${limit.toFixed(2)} × identical-bytes floor`, row?.ratio, limit, (v) => v >= limit, '×', skewed(row));
    interval(row?.ratioCi);
  }
  // Issue 38: an application password (HTTP Basic) costs about what a login cookie does, once
  // verified: judged on the median of alternated rounds on one server (the two rows are minutes apart).
  add(
    'GET settings (Basic): req/s ≥ 0.80 × GET settings (cookie), median of alternated rounds',
    cmp.basic?.reqRatio,
    0.8,
    (v) => v >= 0.8,
    '×',
    Boolean(cmp.basic?.skewed),
  );
  interval(cmp.basic?.reqRatioCi);
  add(
    'GET settings (Basic): cookie CPU per request ÷ Basic CPU per request, median of alternated rounds (INFO)',
    cmp.basic ? 1 / cmp.basic.cpuRatio : null,
    null,
    () => true,
    '×',
    Boolean(cmp.basic?.skewed),
    true,
  );
  // A refusal repeated byte for byte is answered again (docs/performance.md 20); the row
  // without repeats runs the whole validation path every time (issue 44: ≥ 0.60).
  const fresh = byName(rows, NO_REPEATS_ROW);
  add(
    `${NO_REPEATS_ROW}: req/s ≥ ${NO_REPEATS_LIMIT.toFixed(2)} × identical-bytes floor (the whole path; the 400 above is a repeat)`,
    fresh?.ratio,
    NO_REPEATS_LIMIT,
    (v) => v >= NO_REPEATS_LIMIT,
    '×',
    skewed(fresh),
  );
  interval(fresh?.ratioCi);
  // The p99 target belongs to the same scenarios and, issue 44, to the batch and user-update
  // rows: they have an identical-bytes floor of their own (their answers replayed on their 4
  // connections), judged on a line of its own because their floor does no durable write. The
  // toggle and the admin HTML have budgets of their own (a 1-connection floor's p99 is 0-1 ms).
  const p99Target = (label, candidates) => {
    const withP99 = candidates.filter((r) => r && Number.isFinite(r.p99Ratio));
    const worst = withP99.reduce((w, r) => (!w || r.p99Ratio > w.p99Ratio ? r : w), null);
    add(
      `p99 ≤ ${P99_LIMIT} × identical-bytes floor's p99, ${label} (${withP99.length} rows; worst: ${worst?.name ?? '-'})`,
      worst?.p99Ratio,
      P99_LIMIT,
      (v) => v <= P99_LIMIT,
      '×',
      skewed(worst),
    );
  };
  p99Target(
    'the ratio rows',
    FLOOR_TARGETS.map(([name]) => byName(rows, name)),
  );
  p99Target(
    'batch/v1 and one-by-one user updates',
    rows.filter((r) => r.group === 'batch'),
  );
  // Issue 44: "show the RSS of a worker that never serves them" (MCP SDK, OpenTelemetry, AWS
  // SDK): the target is judged on the servers that never serve MCP, abilities or the export;
  // the abilities/MCP server's and the audit server's peaks are printed beside it.
  const highest = (rs) => rs.reduce((w, r) => (!w || (r.hwmMB ?? 0) > (w.hwmMB ?? 0) ? r : w), null);
  const hwmRow = highest(rows.filter((r) => !OWN_SERVER_GROUPS.includes(r.group)));
  add(
    `peak RSS (VmHWM) ≤ ${RSS_LIMIT_MB} MB per worker, servers that never served MCP/abilities/OTLP/S3/export (highest: ${hwmRow?.name ?? '-'})`,
    hwmRow?.hwmMB,
    RSS_LIMIT_MB,
    (v) => v <= RSS_LIMIT_MB,
    ' MB',
  );
  const abilitiesRss = highest(rows.filter((r) => r.group === 'abilities'));
  add(
    `peak RSS (VmHWM) of the abilities/MCP server (INFO, beside the ${num(hwmRow?.hwmMB, 1)} MB above)`,
    abilitiesRss?.hwmMB,
    null,
    () => true,
    ' MB',
    false,
    true,
  );
  // "The cost per request must stay flat" (the bench's scaling target): judged on CPU per
  // request, the median of the alternated rounds; the interval is printed beside it.
  add(
    'routes 25 → 1000: cost per request (CPU, median of alternated rounds) +≤ 10%',
    cmp.routes?.cpuGrowthPct,
    10,
    (v) => v <= 10,
    '%',
    cmp.routes?.skewed,
  );
  interval(cmp.routes?.cpuGrowthCi);
  add(
    'sessions 10 → 100k: cost per request (CPU, median of alternated rounds) +≤ 10%',
    cmp.sessions?.cpuGrowthPct,
    10,
    (v) => v <= 10,
    '%',
    cmp.sessions?.skewed,
  );
  interval(cmp.sessions?.cpuGrowthCi);
  // Issue 44: "a readonly ability run over REST within 10 % of its route".
  add(
    `readonly ability run over REST: CPU per request ÷ its route's (module/all) ≤ ${ABILITY_LIMIT.toFixed(2)}, median of alternated rounds`,
    cmp.ability?.cpuRatio,
    ABILITY_LIMIT,
    (v) => v <= ABILITY_LIMIT,
    '×',
    cmp.ability?.skewed,
  );
  interval(cmp.ability?.cpuRatioCi);
  add(
    'MCP tools/call of a readonly tool (adapter path, application password): calls/s (INFO)',
    cmp.mcp?.perSec,
    null,
    () => true,
    '/s',
    cmp.mcp?.skewed,
    true,
  );
  // Issue 44: the durable toggle with its audit event against today's (pre-audit) toggle, in this run.
  add(
    `durable toggle with its audit event: CPU per request ÷ the pre-audit checkout's ≤ ${TOGGLE_BASELINE_LIMIT.toFixed(2)}, median of alternated rounds${baselineSkipped ? ` (${baselineSkipped})` : ''}`,
    cmp.toggleBaseline?.cpuRatio,
    TOGGLE_BASELINE_LIMIT,
    (v) => v <= TOGGLE_BASELINE_LIMIT,
    '×',
    cmp.toggleBaseline?.skewed,
  );
  interval(cmp.toggleBaseline?.cpuRatioCi);
  const auditList = byName(rows, AUDIT_LIST_ROW);
  add(
    `${AUDIT_LIST_ROW}: req/s ÷ identical-bytes floor (INFO${auditList?.seededEvents ? `, ${auditList.seededEvents.toLocaleString('en')} events` : ''})`,
    auditList?.ratio,
    null,
    () => true,
    '×',
    skewed(auditList),
    true,
  );
  add(
    `audit export, ndjson of ${auditExport?.lines?.toLocaleString('en') ?? '100,000'} events: MB/s (INFO)`,
    auditExport ? auditExport.bytes / 1e6 / auditExport.seconds : null,
    null,
    () => true,
    ' MB/s',
    false,
    true,
  );
  add(
    `audit export: the audit server's peak RSS (VmHWM) after it (INFO; RSS before: ${num(auditExport?.rssBeforeMB, 1)} MB)`,
    auditExport?.hwmMB,
    null,
    () => true,
    ' MB',
    false,
    true,
  );
  const toggle = rows.find((r) => r.toggle && r.group === 'main');
  const bareToggles = toggle?.baseline ? `, identical-bytes floor on the same requests: ${num(toggle.baseline.reqPerSec)}/s` : '';
  add(`durable toggles (2xx/s) ≥ 2000 (1 connection${bareToggles})`, toggle?.expectedPerSec, 2000, (v) => v >= 2000, '/s', skewed(toggle));
  const adminHtml = byName(rows, 'GET /admin/ (HTML)');
  add(
    '/admin/ HTML server CPU ≤ 2 ms per request',
    adminHtml?.cpuUsPerReq === null || adminHtml?.cpuUsPerReq === undefined ? undefined : adminHtml.cpuUsPerReq / 1000,
    2,
    (v) => v <= 2,
    ' ms',
    skewed(adminHtml),
  );
  const pg = cmp.postgres ?? {};
  const pgNote = pgSkipped ? ' (skipped: no SITEWARD_BENCH_PG)' : '';
  const alternated = ' (median of alternated rounds)';
  add(
    `PostgreSQL settings req/s ≥ 0.90 × SQLite's${alternated}${pgNote}`,
    pg.settings?.ratio,
    0.9,
    (v) => v >= 0.9,
    '×',
    pg.settings?.skewed,
  );
  interval(pg.settings?.reqRatioCi);
  add(
    `PostgreSQL module/all req/s ≥ 0.90 × SQLite's${alternated}${pgNote}`,
    pg.moduleAll?.ratio,
    0.9,
    (v) => v >= 0.9,
    '×',
    pg.moduleAll?.skewed,
  );
  interval(pg.moduleAll?.reqRatioCi);
  add(
    `PostgreSQL durable toggles, 8 connections on 8 modules (2xx/s) ≥ 1500${pgNote}`,
    pg.toggles?.perSec,
    1500,
    (v) => v >= 1500,
    '/s',
    pg.toggles?.skewed,
  );
  add(
    `PostgreSQL sessions 10 → 100k: cost per request (CPU, median of alternated rounds) +≤ 10%${pgNote}`,
    pg.sessions?.cpuGrowthPct,
    10,
    (v) => v <= 10,
    '%',
    pg.sessions?.skewed,
  );
  interval(pg.sessions?.cpuGrowthCi);
  // The alternated rounds' responses count too.
  const errors = [cmp.basic, cmp.routes, cmp.sessions, cmp.ability, cmp.toggleBaseline, pg.settings, pg.moduleAll, pg.sessions].reduce(
    (sum, c) => sum + (c?.errors ?? 0),
    rows.reduce((sum, r) => sum + r.errors, 0),
  );
  add('every response has the expected status', rows.length ? errors : undefined, 0, (v) => v === 0, ' errors');
  // Reported, not judged (issue 16): on 2 cores shared with the load generator a second worker
  // has no core of its own; docs/performance.md says how to measure scaling on a bigger machine.
  add(
    'batch/v1 of 10 user updates: CPU per update ÷ the same sent one by one (INFO)',
    cmp.batch?.ratio,
    null,
    () => true,
    '×',
    cmp.batch?.skewed,
    true,
  );
  add(
    '2 workers vs 1 worker (settings): gain, not a target on this machine',
    cmp.workers?.gain,
    null,
    () => true,
    '×',
    cmp.workers?.skewed,
    true,
  );
  return t;
}

const num = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

function table(headers, lines) {
  const widths = headers.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
  const fmt = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [fmt(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(fmt)].join('\n');
}

/** The human-readable report. */
export function format(report) {
  const { meta, rows, comparisons: cmp, targets: tg, failures } = report;
  const out = [];
  out.push(
    `Siteward benchmark — ${meta.date}, Node ${meta.node}, ${meta.cpus} CPUs, ${meta.connections} connections, ` +
      `${meta.duration} s per run (+${meta.warmup} s warm-up), total ${num(meta.totalSeconds)} s`,
    '',
  );
  const fmtRss = (r) => `${num(r.rssMB, 0)}${r.processes > 1 ? ` ×${r.processes}` : ''}`;
  const other = (r) =>
    [r.otherCores, r.baseline?.otherCores, r.bodyOnly?.otherCores]
      .filter((v) => v !== undefined)
      .map((v) => num(v, 2))
      .join(' / ');
  out.push(
    "Siteward against the identical-bytes floor (a bare node:http server replaying Siteward's own answer: same status line, headers and body; Date regenerated):",
    '',
    table(
      [
        'scenario',
        'req/s',
        'p50 ms',
        'p99 ms',
        'CPU µs/req',
        'err+non-2xx',
        'RSS MB',
        'floor req/s',
        'floor p50',
        'floor p99',
        'floor CPU',
        'ratio',
        'p99 ratio',
        'CPU ratio',
        'body-only ratio',
        'other CPU',
      ],
      rows.map((r) => [
        r.name,
        num(r.reqPerSec),
        num(r.p50, 3),
        num(r.p99, 3),
        num(r.cpuUsPerReq),
        r.errors,
        fmtRss(r),
        num(r.baseline?.reqPerSec),
        num(r.baseline?.p50, 3),
        num(r.baseline?.p99, 3),
        num(r.baseline?.cpuUsPerReq),
        num(r.ratio, 2),
        num(r.p99Ratio, 2),
        num(r.cpuRatio, 2),
        num(r.bodyOnlyRatio, 2),
        other(r),
      ]),
    ),
  );
  out.push(
    'ratio = req/s ÷ identical-bytes floor req/s (the targets); CPU ratio = floor CPU ÷ CPU µs/req (steadier on a shared machine, not judged);',
    "body-only ratio = req/s ÷ the body-only floor's (issue 6's: same status and body size, 2 headers).",
    'CPU µs/req: CPU time of the serving process(es) per request during the run; floor CPU: of the floor server. RSS MB: highest VmRSS of one serving',
    'process (×N: N worker processes). other CPU: cores used by processes outside the bench during the run / its identical-bytes floor / its body-only floor.',
  );
  if (rows.some((r) => r.group === 'postgres')) out.push("PG rows: Siteward on PostgreSQL (SITEWARD_BENCH_PG, a schema of the run's own).");
  const withBodyOnly = rows.filter((r) => r.bodyOnly && r.group === 'main');
  if (withBodyOnly.length) {
    out.push(
      '',
      'The body-only floor, for comparison in this release (not a target):',
      '',
      table(
        ['scenario', 'floor req/s', 'floor p50', 'floor p99', 'floor CPU', 'ratio', 'p99 ratio', 'identical-bytes ratio'],
        withBodyOnly.map((r) => [
          r.name,
          num(r.bodyOnly.reqPerSec),
          num(r.bodyOnly.p50, 1),
          num(r.bodyOnly.p99, 1),
          num(r.bodyOnly.cpuUsPerReq),
          num(r.bodyOnlyRatio, 2),
          num(r.bodyOnlyP99Ratio, 2),
          num(r.ratio, 2),
        ]),
      ),
    );
  }
  const busy = rows.filter((r) => skewed(r));
  if (busy.length) {
    out.push(
      `WARNING: other processes used > ${NOISY_CORES} core during ${busy.length} run(s) (${busy.map((r) => r.name).join('; ')}): those numbers are skewed.`,
    );
  }
  const oddStatuses = rows.filter((r) => r.errors > 0);
  if (oddStatuses.length) {
    out.push('', 'Unexpected responses (status → count; socket errors/timeouts):');
    for (const r of oddStatuses) {
      out.push(`  ${r.name}: ${JSON.stringify(r.statusCounts)}; errors ${r.socketErrors}, timeouts ${r.timeouts}`);
    }
  }
  out.push('', 'Scaling:');
  const flag = (c) => (c?.skewed ? '  (skewed)' : '');
  const signed = (v) => `${v >= 0 ? '+' : ''}${num(v, 1)}%`;
  const cpu = (c) =>
    Number.isFinite(c.cpuGrowthPct)
      ? `; CPU ${num(c.cpuSmall)} → ${num(c.cpuLarge)} µs/req (${signed(c.cpuGrowthPct)}; median of ${c.rounds} alternated rounds of ${c.seconds} s: ×${c.cpuRatios.map((r) => num(r, 2)).join(', ×')}${c.cpuGrowthCi ? `; 90% interval ${signed(c.cpuGrowthCi[0])} to ${signed(c.cpuGrowthCi[1])}` : ''})${c.errors ? `, ${c.errors} errors` : ''}`
      : '';
  const pct = (c) => (c ? `${num(c.small)} → ${num(c.large)} req/s, loss ${num(c.lossPct, 1)}%${cpu(c)}${flag(c)}` : 'not measured');
  out.push(`  routes 25 → 1000 (module/all):    ${pct(cmp.routes)}`);
  out.push(`  sessions 10 → 100k (settings):    ${pct(cmp.sessions)}`);
  out.push(
    `  batch/v1 vs one by one (users):   ${cmp.batch ? `${num(cmp.batch.batch)} vs ${num(cmp.batch.oneByOne)} CPU µs per update (${cmp.batch.size} per batch), ×${num(cmp.batch.ratio, 2)}${flag(cmp.batch)}` : 'not measured'}`,
  );
  out.push(
    `  workers 1 → 2 (settings):         ${cmp.workers ? `${num(cmp.workers.one)} → ${num(cmp.workers.two)} req/s, gain ×${num(cmp.workers.gain, 2)}; CPU ${num(cmp.workers.cpuOne)} → ${num(cmp.workers.cpuTwo)} µs/req${flag(cmp.workers)}` : 'not measured'}` +
      ' (reported only: 2 cores shared with the load generator cannot show scaling; see docs/performance.md)',
  );
  out.push('', 'PostgreSQL:');
  const pg = cmp.postgres ?? {};
  if (meta.postgres?.skipped) {
    out.push(`  ${meta.postgres.skipped}`);
  } else {
    const vs = (c) =>
      c
        ? `${c.rounds} alternated rounds of ${c.seconds} s: median ${num(c.pg)} vs ${num(c.sqlite)} req/s, ratio per round ${c.ratios.map((r) => num(r, 2)).join(', ')} (median ×${num(c.ratio, 2)}${c.reqRatioCi ? `, 90% interval ×${num(c.reqRatioCi[0], 2)} to ×${num(c.reqRatioCi[1], 2)}` : ''}); CPU ${num(c.cpuPg)} vs ${num(c.cpuSqlite)} µs/req (median ×${num(c.cpuRatio, 2)})${c.errors ? `, ${c.errors} errors` : ''}${flag(c)}`
        : 'not measured';
    out.push(`  settings (PG, 10 sessions vs SQLite, main store):  ${vs(pg.settings)}`);
    out.push(`  module/all:                                        ${vs(pg.moduleAll)}`);
    out.push(
      `  durable toggles, 8 connections on 8 modules:       ${pg.toggles ? `${num(pg.toggles.perSec)} 2xx/s, p99 ${num(pg.toggles.p99, 1)} ms, CPU ${num(pg.toggles.cpuUsPerReq)} µs/req${flag(pg.toggles)}` : 'not measured'}`,
    );
    out.push(`  sessions 10 → 100k (settings):                     ${pct(pg.sessions)}`);
  }
  out.push('', 'Issue 44 surfaces:');
  const ab = cmp.ability;
  out.push(
    `  ability run vs its route (module/all): ${ab ? `CPU ${num(ab.cpuB)} vs ${num(ab.cpuA)} µs/req, ×${num(ab.cpuRatio, 2)} (rounds ×${ab.cpuRatios.map((r) => num(r, 2)).join(', ×')})${flag(ab)}` : 'not measured'}`,
  );
  out.push(
    `  MCP tools/call (Basic):                ${cmp.mcp ? `${num(cmp.mcp.perSec)} calls/s, CPU ${num(cmp.mcp.cpuUsPerReq)} µs/call${flag(cmp.mcp)}` : 'not measured'}`,
  );
  const tb = cmp.toggleBaseline;
  out.push(
    `  toggle vs pre-audit checkout:          ${tb ? `CPU ${num(tb.cpuB)} vs ${num(tb.cpuA)} µs/req, ×${num(tb.cpuRatio, 2)} (rounds ×${tb.cpuRatios.map((r) => num(r, 2)).join(', ×')}); ${num(tb.reqB)} vs ${num(tb.reqA)} 2xx/s${flag(tb)}` : (report.meta.toggleBaseline?.skipped ?? 'not measured')}`,
  );
  const hwmOf = (rs) => (rs.length ? Math.max(...rs.map((r) => r.hwmMB ?? 0)) : null);
  const mainHwm = hwmOf(rows.filter((r) => !OWN_SERVER_GROUPS.includes(r.group)));
  const mcpHwm = hwmOf(rows.filter((r) => r.group === 'abilities'));
  out.push(
    `  peak RSS per worker: ${num(mainHwm, 1)} MB on the servers that never served MCP/abilities/OTLP/S3/export; ${num(mcpHwm, 1)} MB on the abilities/MCP server`,
  );
  const ex = report.audit?.export;
  out.push(
    `  audit export (ndjson):                 ${ex ? `${num(ex.lines)} lines, ${num(ex.bytes / 1e6, 1)} MB in ${num(ex.seconds, 1)} s = ${num(ex.bytes / 1e6 / ex.seconds, 1)} MB/s; audit server RSS ${num(ex.rssBeforeMB, 0)} MB before, peak ${num(ex.hwmMB, 0)} MB` : 'not measured'}`,
  );
  out.push('', 'Targets:');
  for (const t of tg) {
    // Ratios with 3 decimals: a failing 0.796 must not print as "0.8".
    const show = (v) => (t.unit === '×' ? `${v.toFixed(3)}×` : `${v}${t.unit}`);
    const value = t.value === null ? '-' : show(t.value);
    const bound = (v) => (t.unit === '×' ? show(v) : `${v.toFixed(1)}${t.unit}`);
    const ci = t.ci
      ? ` (90% interval of the median ${bound(t.ci[0])} to ${bound(t.ci[1])}${straddles(t) ? ', straddles the limit' : ''})`
      : '';
    out.push(`  ${t.status.padEnd(4)}  ${t.name}: ${value}${ci}${t.skewed ? '  (skewed: other processes were busy)' : ''}`);
  }
  out.push('', verdict(tg));
  if (report.restarts?.length) {
    out.push('', 'Servers restarted mid-run (the measurement was repeated on the new one):');
    for (const r of report.restarts) out.push(`  ${r.stage}: ${r.reason}`);
  }
  if (failures.length) {
    out.push('', 'Stages that failed (their rows are missing):');
    for (const f of failures) out.push(`  ${f.stage}: ${f.error}`);
  }
  return out.join('\n');
}

/** Whether a target's interval has the limit inside it (the median's verdict could go either way on another run). */
const straddles = (t) => t.ci && t.limit !== null && t.ci[0] <= t.limit && t.limit <= t.ci[1];

/** A target's name up to its first ': ' outside parentheses (the limit and method follow it). */
function shortName(name) {
  let depth = 0;
  for (let i = 0; i < name.length - 1; i++) {
    if (name[i] === '(') depth++;
    else if (name[i] === ')') depth--;
    else if (depth === 0 && name[i] === ':' && name[i + 1] === ' ') return name.slice(0, i);
  }
  return name;
}

/**
 * The run's one-line verdict: PASS for every target only when no target failed and none was
 * N/A (a target not measured is not a pass); INFO lines are not targets.
 */
export function verdict(tg) {
  const judged = tg.filter((t) => t.status !== 'INFO' && !t.info);
  const failed = judged.filter((t) => t.status === 'FAIL');
  const missing = judged.filter((t) => t.status === 'N/A');
  const skewedOnes = judged.filter((t) => t.skewed);
  if (!failed.length && !missing.length)
    return `RESULT: PASS for every target (${judged.length} of ${judged.length})${skewedOnes.length ? `, but ${skewedOnes.length} skewed by other processes: rerun on a quiet machine` : ''}`;
  const names = (ts) => ts.map((t) => shortName(t.name)).join('; ');
  return [
    `RESULT: NOT every target passes: ${judged.length - failed.length - missing.length} PASS, ${failed.length} FAIL, ${missing.length} N/A of ${judged.length}`,
    ...(failed.length ? [`  FAIL: ${names(failed)}`] : []),
    ...(missing.length ? [`  N/A: ${names(missing)}`] : []),
  ].join('\n');
}

/** Writes the report as JSON; returns the path. */
export function writeJson(report) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = `${RESULTS_DIR}latest.json`;
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  return path;
}
