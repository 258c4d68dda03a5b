// The production app in this process, for the in-process micro-benches (serve-cost.js,
// admin-cost.js): `createApp` on a temp SQLite data dir (removed at exit) with a logged-in
// administrator. SERVE_COST_ROOT=<checkout> loads another checkout's dist/ (A/B, one process each).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const root = path.resolve(process.env.SERVE_COST_ROOT ?? path.join(path.dirname(new URL(import.meta.url).pathname), '..'));
const load = (p) => import(pathToFileURL(path.join(root, 'dist', p)).href);

/** `{ app, login }`: the app and `authenticator.login`'s answer (cookie and identity) for `benchadmin`. */
export async function inProcessApp(name) {
  const { createApp } = await load('compose.js');
  const { loadConfig } = await load('settings.js');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `siteward-${name}-`));
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    env: {
      SITEWARD_DATA_DIR: dataDir,
      SITEWARD_HOME_URL: 'http://127.0.0.1:8080',
      SITEWARD_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
      LOG_LEVEL: 'silent',
    },
    cwd: dataDir,
    configFile: null,
  });
  const app = await createApp(config, { logger: false, cwd: dataDir, startJobs: false });
  const created = await app.users.create({
    login: 'benchadmin',
    email: 'bench@example.org',
    role: 'administrator',
    password: 'bench-password-1',
  });
  if (!created.ok) throw new Error('user creation failed');
  const login = await app.authenticator.login('benchadmin', 'bench-password-1');
  if (!login.ok) throw new Error('login failed');
  return { app, login };
}

/**
 * CPU µs per call of each scenario (`[name, arg]`): `run(arg, n)` makes n calls; a warm-up of
 * `warm` calls each, then `rounds` rounds with the scenarios interleaved. Prints the median and
 * range per scenario under `title`, with `digits` decimals.
 */
export async function cpuRounds(scenarios, run, { n, rounds, warm, title, digits = 2, width = 18 }) {
  for (const [, arg] of scenarios) await run(arg, warm);
  const results = new Map(scenarios.map(([name]) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, arg] of scenarios) {
      const cpu0 = process.cpuUsage();
      await run(arg, n);
      const cpu = process.cpuUsage(cpu0);
      results.get(name).push((cpu.user + cpu.system) / n);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(title);
  for (const [name, xs] of results)
    console.log(
      `${name.padEnd(width)} ${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`,
    );
}
