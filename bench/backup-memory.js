// Bounded memory of backups (issue 24 item 10): generates a store of SITEWARD_BENCH_MB (default
// 1024) MiB of incompressible rows, then runs the built CLI's `backup now` (local directory +
// S3-compatible s3rver on 127.0.0.1, encrypted) and `backup verify` (from the bucket) as child
// processes and reports each one's peak RSS (VmHWM, polled from /proc). SQLite by default;
// SITEWARD_BENCH_PG=postgres://… runs it on a fresh schema there too. Needs `npm run build:server`.
// Usage: node bench/backup-memory.js
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { clearInterval, setInterval } from 'node:timers';

const require = createRequire(import.meta.url);
const BIN = fileURLToPath(new URL('../bin/siteward.js', import.meta.url));
const MB = Number(process.env.SITEWARD_BENCH_MB ?? 1024);
const LIMIT_MB = 200;
const ROW = 1024 * 1024;

function peakRss(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let peak = 0;
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]) * 1024);
      } catch {
        // exited
      }
    }, 50);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(poll);
      if (code !== 0) reject(new Error(`siteward ${args.join(' ')} exited ${code}: ${err}`));
      else resolve({ peak, out: out.trim() });
    });
  });
}

/** Rows of random base64 in status_values (a table every store has, so PostgreSQL restores rebuild it). */
async function fill(location) {
  const value = () => JSON.stringify(randomBytes((ROW * 3) / 4).toString('base64'));
  if (location.backend === 'sqlite') {
    const db = new BetterSqlite3(path.join(location.dataDir, 'siteward.db'));
    const insert = db.prepare('INSERT INTO status_values (key, value, updated) VALUES (?, ?, 0)');
    for (let i = 0; i < MB; i++) insert.run(`bench.blob.${i}`, value());
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: location.url });
  await client.connect();
  for (let i = 0; i < MB; i++)
    await client.query('INSERT INTO status_values (key, value, updated) VALUES ($1, $2, 0)', [`bench.blob.${i}`, value()]);
  await client.end();
}

async function run(backend) {
  const root = mkdtempSync(path.join(os.tmpdir(), `siteward-bench-backup-${backend}-`));
  const S3rver = require('s3rver');
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: path.join(root, 's3'),
    configureBuckets: [{ name: 'bench' }],
  });
  const { port } = await s3.run();
  let schema = null;
  try {
    const dataDir = path.join(root, 'data');
    let databaseUrl;
    if (backend === 'postgres') {
      schema = `sw_bench_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: process.env.SITEWARD_BENCH_PG });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      const url = new URL(process.env.SITEWARD_BENCH_PG);
      url.searchParams.set('options', `-c search_path=${schema}`);
      databaseUrl = url.toString();
    }
    const config = path.join(root, 'siteward.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        dataDir,
        homeUrl: 'http://127.0.0.1:1',
        backupSchedule: 'off',
        backupDir: path.join(root, 'backups'),
        backupS3Url: `s3://bench/site?endpoint=http://127.0.0.1:${port}&region=us-east-1&forcePathStyle=true`,
        backupEncryptionKey: 'bench passphrase, long and random enough 0b7e',
        ...(databaseUrl && { databaseUrl }),
      }),
    );
    const env = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', NODE_NO_WARNINGS: '1' };
    execFileSync(
      process.execPath,
      [
        BIN,
        'user',
        'create',
        'admin',
        '--email',
        'a@example.org',
        '--role',
        'administrator',
        '--password',
        `pw${randomBytes(12).toString('base64url')}`,
        '--config',
        config,
      ],
      { env: { ...process.env, ...env }, stdio: 'ignore' },
    );
    let started = Date.now();
    await fill(databaseUrl ? { backend, url: databaseUrl } : { backend, dataDir });
    console.log(`${backend}: ${MB} MiB generated in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    const results = [];
    // `backup list` first: the CLI's own footprint (every feature loaded), the floor under the others.
    for (const [name, args] of [
      ['list (baseline)', ['backup', 'list']],
      ['backup + upload', ['backup', 'now']],
      ['verify from S3', null],
    ]) {
      started = Date.now();
      const argv = args ?? ['backup', 'verify', results[1].id, '--target', 's3'];
      const { peak, out } = await peakRss([...argv, '--config', config], env);
      results.push({ name, id: out.split('\n').pop(), peak, seconds: (Date.now() - started) / 1000 });
    }
    for (const r of results) {
      const mb = r.peak / 1024 / 1024;
      console.log(
        `${backend}  ${r.name.padEnd(16)} peak RSS ${mb.toFixed(0).padStart(4)} MB  ${mb < LIMIT_MB ? 'ok' : `OVER ${LIMIT_MB} MB`}  (${r.seconds.toFixed(0)} s)`,
      );
    }
  } finally {
    await s3.close();
    if (schema !== null) {
      const admin = new pg.Client({ connectionString: process.env.SITEWARD_BENCH_PG });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
    rmSync(root, { recursive: true, force: true });
  }
}

await run('sqlite');
if (process.env.SITEWARD_BENCH_PG) await run('postgres');
