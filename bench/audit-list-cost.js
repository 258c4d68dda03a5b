// Micro-bench (issue 41/44): CPU µs per `GET siteward/v1/audit` page of 100 events, in process
// (`app.rest.serve()`, no sockets) on a temp SQLite store holding EVENTS events appended through
// the store API (audit-export.js's events), as an administrator; the scenarios interleaved and
// repeated, medians printed. Needs `npm run build:server`.
//
//   node bench/audit-list-cost.js [EVENTS=10000] [N=200] [rounds=3] [scenario-substring]
//
// Set SERVE_COST_ROOT=<checkout> to measure another checkout's dist/ (A/B, one process each).
import { cpuRounds, inProcessApp, root } from './in-process-app.js';
import { event } from './audit-export.js';

const EVENTS = Number(process.argv[2] ?? 10_000);
const N = Number(process.argv[3] ?? 200);
const ROUNDS = Number(process.argv[4] ?? 3);
const ONLY = process.argv[5] ?? '';
const { app, login } = await inProcessApp('audit-list-cost');
for (let i = 0; i < EVENTS; i += 10_000) {
  const events = [];
  for (let k = i; k < Math.min(EVENTS, i + 10_000); k++) events.push(event(k));
  await app.store.auditLog.append(events);
}
const headers = {
  host: '127.0.0.1:8080',
  cookie: `siteward_logged_in=${login.cookie}`,
  'x-wp-nonce': app.authenticator.createNonce('wp_rest', login.identity),
};
const origin = { secure: false, hostname: '127.0.0.1:8080' };
const req = (query) => ({ method: 'GET', route: '/siteward/v1/audit', query, headers, body: '', origin, clientIp: '127.0.0.1' });
const scenarios = [
  ['page 1', { per_page: '100' }],
  ['page 50', { per_page: '100', page: '50' }],
  ['action=module.', { per_page: '100', action: 'module.' }],
  ['action exact', { per_page: '100', action: 'option.updated' }],
  ['object', { per_page: '100', object_type: 'option', object_id: 'option_7' }],
].filter(([name]) => name.includes(ONLY));

async function run(query, n) {
  for (let i = 0; i < n; i++) {
    const out = await app.rest.serve(req(query));
    if (out.status !== 200) throw new Error(`status ${out.status}: ${String(out.body).slice(0, 200)}`);
  }
}
await cpuRounds(scenarios, run, {
  n: N,
  rounds: ROUNDS,
  warm: 50,
  title: `${root}: ${EVENTS} events, N=${N}, ${ROUNDS} rounds; median CPU µs per page of 100 (min–max)`,
  digits: 0,
  width: 16,
});
await app.close();
process.exit(0);
