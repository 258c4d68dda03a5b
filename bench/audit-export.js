// Audit export memory and speed (issue 41 item 5): seeds the audit log of a fresh SQLite store
// (or PostgreSQL with SITEWARD_BENCH_PG) straight through the built store API, in batches, to
// 100,000 events and then to SITEWARD_BENCH_EVENTS (default 1,000,000); at each size it starts
// `siteward start` (one process), logs in, streams GET siteward/v1/audit/export?format=ndjson
// (and csv) to nowhere, and reports MB/s and the server's RSS before and its peak (VmHWM) after,
// plus the time of GET siteward/v1/audit?per_page=100 (first and a far page). Needs
// `npm run build:server`. Usage: node bench/audit-export.js
// bench/run.js imports seedTo and exportTo for its audit rows; the measurement below runs only
// when this file is the program.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createAdmin, login, startSiteward } from './siteward-process.js';
import { memoryOf } from './proc.js';
import { request } from './http-client.js';

const TARGET = Number(process.env.SITEWARD_BENCH_EVENTS ?? 1_000_000);
const SIZES = [100_000, TARGET].filter((n, i, all) => n <= TARGET && all.indexOf(n) === i);
const BATCH = 10_000;
const PG = process.env.SITEWARD_BENCH_PG;

const { openStore } = await import('../dist/store/index.js');
const { featureMigrations } = await import('../dist/compose.js');
const { builtInFeatures } = await import('../dist/features/index.js');

/** A realistic event: a user changing one option from the admin page, ~600 bytes of JSON. */
export function event(i) {
  return {
    action: i % 3 === 0 ? 'module.activated' : 'option.updated',
    result: 'ok',
    actor: { kind: 'user', user_id: 1, login: 'admin', credential: { type: 'session', token_hash: 'ab'.repeat(32) } },
    client_ip: '203.0.113.7',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    request_id: randomBytes(8).toString('hex'),
    object: { type: 'option', id: `option_${i % 500}`, name: `Option ${i % 500}` },
    changes: { [`option_${i % 500}`]: { before: `value ${i - 1}`, after: `value ${i}` } },
  };
}

/** Appends events `from`..`to` - 1 to the audit log of the store at `storeOptions` (the server must not be running). */
export async function seedTo(storeOptions, from, to) {
  const store = await openStore({ ...storeOptions, migrations: featureMigrations(builtInFeatures) });
  const started = performance.now();
  try {
    for (let i = from; i < to; i += BATCH) {
      const events = [];
      for (let k = i; k < Math.min(to, i + BATCH); k++) events.push(event(k));
      await store.auditLog.append(events);
    }
  } finally {
    await store.close();
  }
  const s = (performance.now() - started) / 1000;
  console.log(`  seeded ${from.toLocaleString('en')} → ${to.toLocaleString('en')} events in ${s.toFixed(1)} s`);
}

/** Streams the export to nowhere; bytes, seconds and lines. */
export function exportTo(baseUrl, headers, format) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(`${baseUrl}/wp-json/siteward/v1/audit/export?format=${format}`, { headers }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`export answered ${res.statusCode}`));
      let bytes = 0;
      let lines = 0;
      res.on('data', (chunk) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
      });
      res.on('end', () => resolve({ bytes, lines, s: (performance.now() - started) / 1000 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function listTime(baseUrl, headers, page) {
  const times = [];
  for (let i = 0; i < 10; i++) {
    const started = performance.now();
    const res = await request(`${baseUrl}/wp-json/siteward/v1/audit?per_page=100&page=${page}`, { headers, timeoutMs: 60_000 });
    if (res.status !== 200) throw new Error(`list answered ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function measure(dataDir, env, size) {
  const server = await startSiteward({ dataDir, env });
  try {
    const { headers } = await login(server.baseUrl, 'admin', 'correct horse battery staple');
    const rows = [];
    // The worker that streams the export, not the cluster's primary (server.pid), which serves nothing.
    const [pid] = server.servingPids();
    for (const format of ['ndjson', 'csv']) {
      const before = memoryOf(pid);
      const result = await exportTo(server.baseUrl, headers, format);
      const after = memoryOf(pid);
      rows.push({ format, ...result, rssBefore: before.rssMB, peak: after.hwmMB });
    }
    const first = await listTime(server.baseUrl, headers, 1);
    const far = await listTime(server.baseUrl, headers, Math.floor(size / 100 / 2));
    console.log(`\n${size.toLocaleString('en')} events (${server.database}):`);
    for (const r of rows)
      console.log(
        `  export ${r.format.padEnd(6)} ${(r.bytes / 1e6).toFixed(1)} MB, ${r.lines.toLocaleString('en')} lines in ${r.s.toFixed(1)} s = ${(r.bytes / 1e6 / r.s).toFixed(1)} MB/s; server RSS ${r.rssBefore.toFixed(0)} MB before, peak ${r.peak.toFixed(0)} MB`,
      );
    console.log(
      `  list per_page=100: first page ${first.toFixed(1)} ms, page ${Math.floor(size / 200)} ${far.toFixed(1)} ms (median of 10)`,
    );
  } finally {
    await server.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'siteward-bench-audit-'));
  let schemaClient;
  const env = {};
  try {
    if (PG) {
      const schema = `bench_audit_${randomBytes(4).toString('hex')}`;
      schemaClient = new pg.Client({ connectionString: PG });
      await schemaClient.connect();
      await schemaClient.query(`CREATE SCHEMA ${schema}`);
      env.SITEWARD_DATABASE_URL = `${PG}${PG.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
      env.__schema = schema;
    }
    const storeOptions = { dataDir, ...(env.SITEWARD_DATABASE_URL && { databaseUrl: env.SITEWARD_DATABASE_URL }) };
    await createAdmin({ dataDir, login: 'admin', email: 'admin@example.org', password: 'correct horse battery staple', env });
    console.log(`Audit export bench, Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`);
    let seeded = 0;
    for (const size of SIZES) {
      await seedTo(storeOptions, seeded, size);
      seeded = size;
      const { __schema, ...serverEnv } = env;
      await measure(dataDir, serverEnv, size);
    }
  } finally {
    if (schemaClient) {
      await schemaClient.query(`DROP SCHEMA IF EXISTS ${env.__schema} CASCADE`);
      await schemaClient.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}
