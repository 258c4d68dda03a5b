// Turns the measurements into the comparisons, the PASS/FAIL targets, the printed table and
// bench/results/latest.json. Pure functions apart from writeJson.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));

/** Above this much foreign CPU during a run (cores), its numbers are flagged as skewed. */
const NOISY_CORES = 0.1;
/** Whether any of these runs (or their baselines) shared the machine with other busy processes. */
const skewed = (...rows) => rows.some((r) => r && (r.otherCores > NOISY_CORES || r.baseline?.otherCores > NOISY_CORES));

const round = (n, digits = 2) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);
const byName = (rows, name) => rows.find((r) => r.name === name);

/** Adds the baseline ratios to a row that has a baseline. */
export function withRatios(row, baseline) {
  if (!baseline) return { ...row, baseline: null, ratio: null, p99Ratio: null };
  return {
    ...row,
    baseline: {
      key: baseline.key,
      reqPerSec: baseline.reqPerSec,
      p50: baseline.p50,
      p99: baseline.p99,
      errors: baseline.errors,
      otherCores: baseline.otherCores,
      cpuUsPerReq: baseline.cpuUsPerReq,
    },
    ratio: row.reqPerSec / baseline.reqPerSec,
    p99Ratio: row.p99 / baseline.p99,
  };
}

/** The scaling comparisons: loss = how much slower the big case is; gain = workers speed-up. */
export function comparisons(rows) {
  const pair = (small, large) => {
    const a = byName(rows, small);
    const b = byName(rows, large);
    if (!a || !b) return null;
    // Cost per request: the servers' CPU per request (steadier than req/s on a shared machine).
    const cpuGrowthPct = Number.isFinite(a.cpuUsPerReq) && Number.isFinite(b.cpuUsPerReq) ? (b.cpuUsPerReq / a.cpuUsPerReq - 1) * 100 : null;
    return { small: a.reqPerSec, large: b.reqPerSec, lossPct: (1 - b.reqPerSec / a.reqPerSec) * 100, cpuSmall: a.cpuUsPerReq, cpuLarge: b.cpuUsPerReq, cpuGrowthPct, skewed: skewed(a, b) };
  };
  const one = byName(rows, 'GET settings');
  const two = byName(rows, 'GET settings, 2 workers');
  return {
    routes: pair('module/all, 25 routes', 'module/all, 1000 routes'),
    sessions: pair('settings, 10 sessions', 'settings, 100k sessions'),
    workers: one && two ? { one: one.reqPerSec, two: two.reqPerSec, gain: two.reqPerSec / one.reqPerSec, cpuOne: one.cpuUsPerReq, cpuTwo: two.cpuUsPerReq, skewed: skewed(one, two) } : null,
  };
}

/** The performance budget of the issue. A target whose inputs are missing is N/A (and not a pass). */
export function targets(rows, cmp) {
  const t = [];
  const add = (name, value, limit, ok, unit = '', isSkewed = false) =>
    t.push({
      name,
      value: round(value),
      limit,
      unit,
      status: value === null || value === undefined || !Number.isFinite(value) ? 'N/A' : ok(value) ? 'PASS' : 'FAIL',
      skewed: isSkewed,
    });

  const mod = byName(rows, 'GET module/all');
  const set = byName(rows, 'GET settings');
  add('module/all req/s ≥ 0.70 × baseline', mod?.ratio, 0.7, (v) => v >= 0.7, '×', skewed(mod));
  add('settings req/s ≥ 0.80 × baseline', set?.ratio, 0.8, (v) => v >= 0.8, '×', skewed(set));
  const withP99 = rows.filter((r) => r.group === 'main' && Number.isFinite(r.p99Ratio));
  const worst = withP99.reduce((w, r) => (!w || r.p99Ratio > w.p99Ratio ? r : w), null);
  add(`p99 ≤ 1.5 × baseline p99 (worst: ${worst?.name ?? '-'})`, worst?.p99Ratio, 1.5, (v) => v <= 1.5, '×', skewed(worst));
  add('2 workers ≥ 1.2 × 1 worker (settings)', cmp.workers?.gain, 1.2, (v) => v >= 1.2, '×', cmp.workers?.skewed);
  const hwm = rows.length ? Math.max(...rows.map((r) => r.hwmMB ?? 0)) : undefined;
  add('peak RSS (VmHWM) ≤ 120 MB per worker', hwm, 120, (v) => v <= 120, 'MB');
  // "The cost per request must stay flat" (the bench's scaling target): judged on CPU per request; the req/s loss
  // is printed beside it under Scaling.
  add('routes 25 → 1000: cost per request (CPU) +≤ 10%', cmp.routes?.cpuGrowthPct, 10, (v) => v <= 10, '%', cmp.routes?.skewed);
  add('sessions 10 → 100k: cost per request (CPU) +≤ 10%', cmp.sessions?.cpuGrowthPct, 10, (v) => v <= 10, '%', cmp.sessions?.skewed);
  const toggle = rows.find((r) => r.toggle);
  const bareToggles = toggle?.baseline ? `, bare server on the same requests: ${num(toggle.baseline.reqPerSec)}/s` : '';
  add(`durable toggles (2xx/s) ≥ 2000 (1 connection${bareToggles})`, toggle?.expectedPerSec, 2000, (v) => v >= 2000, '/s', skewed(toggle));
  const adminHtml = byName(rows, 'GET /admin/ (HTML)');
  add('/admin/ HTML server CPU ≤ 2 ms per request', adminHtml?.cpuUsPerReq === null || adminHtml?.cpuUsPerReq === undefined ? undefined : adminHtml.cpuUsPerReq / 1000, 2, (v) => v <= 2, ' ms', skewed(adminHtml));
  const errors = rows.reduce((sum, r) => sum + r.errors, 0);
  add('every response has the expected status', rows.length ? errors : undefined, 0, (v) => v === 0, ' errors');
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
  out.push(
    table(
      ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'err+non-2xx', 'RSS MB', 'base req/s', 'base p99', 'ratio', 'p99 ratio', 'CPU µs/req', 'other CPU'],
      rows.map((r) => [
        r.name,
        num(r.reqPerSec),
        num(r.p50, 1),
        num(r.p99, 1),
        r.errors,
        `${num(r.rssMB, 0)}${r.processes > 1 ? ` ×${r.processes}` : ''}`,
        num(r.baseline?.reqPerSec),
        num(r.baseline?.p99, 1),
        num(r.ratio, 2),
        num(r.p99Ratio, 2),
        `${num(r.cpuUsPerReq)}${r.baseline ? ` / ${num(r.baseline.cpuUsPerReq)}` : ''}`,
        `${num(r.otherCores, 2)}${r.baseline ? ` / ${num(r.baseline.otherCores, 2)}` : ''}`,
      ]),
    ),
  );
  out.push(
    'RSS MB: highest VmRSS of one serving process during the run (×N: N worker processes). ratio = req/s ÷ baseline req/s.',
    'CPU µs/req: CPU time of the serving process(es) per request during the run / of the baseline server.',
    'other CPU: cores used by processes outside the bench during the run / during its baseline.',
  );
  const busy = rows.filter((r) => r.otherCores > NOISY_CORES || r.baseline?.otherCores > NOISY_CORES);
  if (busy.length) {
    out.push(`WARNING: other processes used > ${NOISY_CORES} core during ${busy.length} run(s) (${busy.map((r) => r.name).join('; ')}): those numbers are skewed.`);
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
  const cpu = (c) => (Number.isFinite(c.cpuGrowthPct) ? `; CPU ${num(c.cpuSmall)} → ${num(c.cpuLarge)} µs/req (${c.cpuGrowthPct >= 0 ? '+' : ''}${num(c.cpuGrowthPct, 1)}%)` : '');
  const pct = (c) => (c ? `${num(c.small)} → ${num(c.large)} req/s, loss ${num(c.lossPct, 1)}%${cpu(c)}${flag(c)}` : 'not measured');
  out.push(`  routes 25 → 1000 (module/all):    ${pct(cmp.routes)}`);
  out.push(`  sessions 10 → 100k (settings):    ${pct(cmp.sessions)}`);
  out.push(
    `  workers 1 → 2 (settings):         ${cmp.workers ? `${num(cmp.workers.one)} → ${num(cmp.workers.two)} req/s, gain ×${num(cmp.workers.gain, 2)}; CPU ${num(cmp.workers.cpuOne)} → ${num(cmp.workers.cpuTwo)} µs/req${flag(cmp.workers)}` : 'not measured'}`,
  );
  out.push('', 'Targets:');
  for (const t of tg) {
    out.push(`  ${t.status.padEnd(4)}  ${t.name}: ${t.value ?? '-'}${t.unit}${t.skewed ? '  (skewed: other processes were busy)' : ''}`);
  }
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

/** Writes the report as JSON; returns the path. */
export function writeJson(report) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = `${RESULTS_DIR}latest.json`;
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  return path;
}
