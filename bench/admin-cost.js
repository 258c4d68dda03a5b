// Micro-bench: CPU µs per GET /admin/ in process through the production Fastify server
// (`app.http.inject`, no sockets): the page's own work plus Fastify's. `npm run build` first.
//
//   node bench/admin-cost.js [N=2000] [rounds=5]
//
// Set SERVE_COST_ROOT=<checkout> to measure another checkout's dist/ (A/B, one process each).
import { Buffer } from 'node:buffer';
import { inProcessApp } from './in-process-app.js';

const N = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 5);
const { app, login } = await inProcessApp('admin-cost');
const request = { method: 'GET', url: '/admin/', headers: { host: '127.0.0.1:8080', cookie: `siteward_logged_in=${login.cookie}` } };

async function run(n) {
  for (let i = 0; i < n; i++) {
    const res = await app.http.inject(request);
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
  }
}
await run(500);
const perReq = [];
for (let r = 0; r < ROUNDS; r++) {
  const cpu0 = process.cpuUsage();
  await run(N);
  const cpu = process.cpuUsage(cpu0);
  perReq.push((cpu.user + cpu.system) / N);
}
perReq.sort((a, b) => a - b);
console.log(
  `GET /admin/ (inject): median ${perReq[Math.floor(perReq.length / 2)].toFixed(1)} µs CPU/req (rounds: ${perReq.map((v) => v.toFixed(0)).join(', ')}), ${Buffer.byteLength((await app.http.inject(request)).body)} bytes`,
);
await app.close();
