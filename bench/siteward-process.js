// Siteward as a black box: the CLI to create the administrator, `siteward start` as a child
// process, the JSON login. Nothing here imports the server's code.
import { spawn } from 'node:child_process';
import { setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { childPids, freePort, track, waitExit } from './proc.js';
import { json, request } from './http-client.js';

const BIN = fileURLToPath(new URL('../bin/siteward.js', import.meta.url));

/**
 * The child's environment: ours minus any Siteward/port settings of the shell the bench was run
 * from, so that a developer's exported SITEWARD_* never changes what is measured.
 */
function cleanEnv(extra) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('SITEWARD_') && k !== 'PORT' && k !== 'HOST' && k !== 'LOG_LEVEL') env[k] = v;
  }
  return { ...env, ...extra };
}

/** Keeps the last lines a child printed, to explain a failure without flooding the report. */
function captureTail(child, max = 40) {
  const lines = [];
  const push = (chunk) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > max) lines.splice(0, lines.length - max);
  };
  child.stdout?.on('data', push);
  child.stderr?.on('data', push);
  return lines;
}

/**
 * `siteward user create` in a fresh data dir (cwd = data dir: no stray siteward.config.json
 * applies); `env` adds settings such as SITEWARD_DATABASE_URL.
 */
export async function createAdmin({ dataDir, login, email, password, env = {} }) {
  const child = track(
    spawn(process.execPath, [BIN, 'user', 'create', login, '--email', email, '--role', 'administrator', '--password', password], {
      cwd: dataDir,
      env: cleanEnv({ SITEWARD_DATA_DIR: dataDir, ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const tail = captureTail(child);
  const code = await waitExit(child, 60_000);
  if (code !== 0) {
    child.kill('SIGKILL');
    throw new Error(`siteward user create exited with ${code}:\n${tail.join('\n')}`);
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `siteward start --quiet` on a free loopback port and resolves once GET /wp-json/ answers
 * (and, with workers, once the primary reports them all listening). Returns a handle with the
 * pids that serve requests (for RSS) and stop().
 */
export async function startSiteward({ dataDir, workers = 1, plugins, env = {} }) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // The port also goes on the command line (same value as PORT) so that `ps` tells the bench's
  // servers apart, and so that a `pkill -f "siteward.js start --quiet"` run by someone else on a
  // shared machine does not silently end a measurement.
  const args = [BIN, 'start', '--port', String(port), '--quiet'];
  if (workers > 1) args.push('--workers', String(workers));
  const child = track(
    spawn(process.execPath, args, {
      cwd: dataDir,
      env: cleanEnv({
        PORT: String(port),
        HOST: '127.0.0.1',
        SITEWARD_DATA_DIR: dataDir,
        SITEWARD_HOME_URL: baseUrl,
        ...(plugins ? { SITEWARD_PLUGINS: plugins } : {}),
        ...env,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const tail = captureTail(child);
  const allListening = () => workers <= 1 || tail.some((l) => l.includes(`with ${workers} workers`));

  const deadline = Date.now() + 60_000;
  let answeredAt = 0;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`siteward start exited (${child.exitCode ?? child.signalCode}) before serving:\n${tail.join('\n')}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`siteward start did not answer GET /wp-json/ within 60 s:\n${tail.join('\n')}`);
    }
    if (!answeredAt) {
      try {
        const res = await request(`${baseUrl}/wp-json/`, { timeoutMs: 2000 });
        if (res.status === 200) answeredAt = Date.now();
      } catch {
        // not listening yet
      }
    }
    // With workers, one answering worker is not enough; if the announce line never comes (its
    // wording changed), fall back to "all worker processes exist and 3 s have passed".
    if (answeredAt && (allListening() || (childPids(child.pid).length >= workers && Date.now() - answeredAt > 3000))) break;
    await sleep(100);
  }

  let stopping = false;
  return {
    port,
    baseUrl,
    pid: child.pid,
    /** Where it keeps its data: `postgres` when given a database URL. */
    database: env.SITEWARD_DATABASE_URL ? 'postgres' : 'sqlite',
    output: tail,
    /** Null while running; otherwise how it ended and what it printed last (to explain a failed run). */
    exitInfo: () =>
      stopping || (child.exitCode === null && child.signalCode === null)
        ? null
        : `Siteward exited (${child.exitCode ?? child.signalCode}) without being asked to` +
          `${child.exitCode === 0 ? ' — exit 0 is its graceful SIGTERM/SIGINT shutdown: something outside the bench stopped it' : ''}` +
          `; its last output:\n    ${tail.slice(-15).join('\n    ')}`,
    /** The processes that serve requests: the cluster's workers (the process itself if it has none). */
    servingPids: () => {
      const kids = childPids(child.pid);
      return kids.length > 0 ? kids : [child.pid];
    },
    async stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const workerPids = childPids(child.pid);
      child.kill('SIGTERM'); // graceful: lets the store close cleanly
      if ((await waitExit(child, 10_000)) === null) child.kill('SIGKILL');
      for (const pid of workerPids) {
        try {
          process.kill(pid, 'SIGKILL'); // only if a worker outlived its primary
        } catch {
          // gone, as expected
        }
      }
    },
  };
}

/**
 * POST /login (JSON) → the session cookie(s) as a Cookie header value and the REST nonce:
 * what an authenticated client sends on every request.
 */
export async function login(baseUrl, username, password) {
  const res = await request(`${baseUrl}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`POST /login answered ${res.status}: ${res.text.slice(0, 300)}`);
  const data = json(res);
  const setCookie = [res.headers['set-cookie'] ?? []].flat();
  if (!setCookie.length) throw new Error('POST /login set no cookie');
  if (!data.nonce) throw new Error(`POST /login answered without a nonce: ${res.text.slice(0, 300)}`);
  const cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
  return { cookie, nonce: String(data.nonce), headers: { Cookie: cookie, 'X-WP-Nonce': String(data.nonce) } };
}
