// Micro-bench: CPU µs per request of the production REST layer in process, no sockets:
// `createApp` on a temp SQLite data dir, then N sequential `app.rest.serve()` calls per scenario
// (the bench's main scenarios, logged in as an administrator), interleaved and repeated.
// Shows what our code costs apart from node:http and the kernel. Needs `npm run build:server`.
//
//   node bench/serve-cost.js [N=5000] [rounds=5] [scenario-substring[|another…]]
//
// Set SERVE_COST_ROOT=<checkout> to measure another checkout's dist/ (A/B, one process each).
import { Buffer } from 'node:buffer';
import { cpuRounds, inProcessApp, root } from './in-process-app.js';

const N = Number(process.argv[2] ?? 5000);
const ROUNDS = Number(process.argv[3] ?? 5);
const ONLY = process.argv[4] ?? '';
const { app, login } = await inProcessApp('serve-cost');
const auth = { cookie: `siteward_logged_in=${login.cookie}`, 'x-wp-nonce': app.authenticator.createNonce('wp_rest', login.identity) };
const origin = { secure: false, hostname: '127.0.0.1:8080' };

const req = (method, route, query, headers, body = '') => ({
  method,
  route,
  query,
  headers: { host: '127.0.0.1:8080', ...headers },
  body,
  origin,
  clientIp: '127.0.0.1',
});
// Built once: the loop measures the server, not the making of its requests.
const maybe = JSON.stringify({ active: 'maybe' });
const maybeHeaders = { ...auth, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(maybe)) };
// Issue 44: the durable toggle (one options transaction with its audit event), true and false in turn.
const toggleBodies = [true, false].map((active) => JSON.stringify({ active }));
const toggleHeaders = toggleBodies.map((body) => ({
  ...auth,
  'content-type': 'application/json',
  'content-length': String(Buffer.byteLength(body)),
}));
let toggles = 0;
// The same refusal with bodies never repeated (the bench's "no repeats" row): 256 distinct values.
const distinct = Array.from({ length: 256 }, (_, k) => JSON.stringify({ active: `m${String(k).padStart(4, '0')}` }));
const distinctHeaders = distinct.map((body) => ({
  ...auth,
  'content-type': 'application/json',
  'content-length': String(Buffer.byteLength(body)),
}));
let nextDistinct = 0;
const userChange = JSON.stringify({ description: 'Benchmarked.' });
const userHeaders = { ...auth, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(userChange)) };
const mcpCall = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'mcp-adapter-execute-ability', arguments: { ability_name: 'siteward/list-modules', parameters: {} } },
});
const mcpHeaders = {
  ...auth,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'content-length': String(Buffer.byteLength(mcpCall)),
};
const scenarios = [
  ['index (anon)', () => req('GET', '/', {}, {})],
  ['module/all', () => req('GET', '/jetpack/v4/module/all', {}, auth)],
  ['settings', () => req('GET', '/jetpack/v4/settings', {}, auth)],
  ['OPTIONS markdown', () => req('OPTIONS', '/jetpack/v4/module/markdown', {}, {})],
  ['400 maybe', () => req('POST', '/jetpack/v4/module/markdown/active', {}, maybeHeaders, maybe)],
  [
    'toggle markdown',
    () => {
      const k = toggles++ % 2;
      return req('POST', '/jetpack/v4/module/markdown/active', {}, toggleHeaders[k], toggleBodies[k]);
    },
  ],
  [
    '400 no repeats',
    () => {
      const k = nextDistinct++ & 255;
      return req('POST', '/jetpack/v4/module/markdown/active', {}, distinctHeaders[k], distinct[k]);
    },
  ],
  ['users/me', () => req('GET', '/wp/v2/users/me', {}, auth)],
  ['users (list)', () => req('GET', '/wp/v2/users', { context: 'view', per_page: '100' }, auth)],
  // The bench's user-update row: the same change each time (after the first it changes nothing).
  ['user update', () => req('PUT', `/wp/v2/users/${login.user.id}`, {}, userHeaders, userChange)],
  // Issue 44: the readonly ability over module/all's operation, and the same as an MCP tools/call.
  ['ability list-modules', () => req('GET', '/wp-abilities/v1/abilities/siteward/list-modules/run', {}, auth)],
  ['MCP tools/call', () => req('POST', '/mcp/mcp-adapter-default-server', {}, mcpHeaders, mcpCall)],
].filter(([name]) => ONLY.split('|').some((part) => name.includes(part)));

async function run(make, n) {
  for (let i = 0; i < n; i++) {
    const out = await app.rest.serve(make());
    if (out.status >= 300 && out.status !== 400) throw new Error(`status ${out.status}: ${String(out.body).slice(0, 200)}`);
  }
}
await cpuRounds(scenarios, run, {
  n: N,
  rounds: ROUNDS,
  warm: 2000,
  title: `${root}: N=${N}, ${ROUNDS} rounds; median CPU µs per rest.serve() (min–max)`,
});
await app.close();
process.exit(0);
