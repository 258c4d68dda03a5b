import cluster, { type Worker } from 'node:cluster';
import { mkdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { makeLogger } from './logger.js';
import { ensureSetupToken } from './auth/setup-token.js';
import { createApp, openConfiguredStore, type App } from './compose.js';
import { recordServerEvent } from './features/audit/lifecycle.js';
import { ConfigError, type Config } from './config/config.js';
import { claimServerPidFile, removeServerPidFile, SERVER_PID_FILE } from './core/server-pid-file.js';
import { createRestUrlBuilder } from './rest/rest-url.js';
import { WorkerRestarts } from './cluster-restarts.js';
import { ensurePortAvailable, withBoundPort } from './bound-port.js';

/**
 * V8 young-generation semi-space (MB) of the serving workers. 2 MB instead of 4 kept the
 * bench's user-update rows under 120 MB (115-117 instead of 118-123), for twice the scavenges:
 * about 1.5 µs more of a worker's CPU per small request (docs/performance.md).
 */
const SEMI_SPACE_MB = 2;
/**
 * How far (%) V8 lets a worker's old generation grow past what the last full collection kept
 * before the next one. Left to itself, V8 picks up to 300 % for a busy process and a worker's
 * ~25 MB of live objects reached 36-42 MB of old space under the bench's writes; at 50 % the
 * peaks were 5-8 MB lower. Without the memory reducer (below) the bench's batch/v1 row still
 * peaked at 121-123 MB in about a third of runs at 50 %; at 30 % the highest of six was 116 MB
 * (107.8-116.0 against 110.8-123.4), for about 5-9 % more CPU on user updates, which allocate
 * the most (docs/performance.md 22).
 */
const HEAP_GROWING_PERCENT = 30;
/**
 * V8's memory reducer stays off in the serving workers. It collects a process that stopped
 * allocating (an idle spell), and afterwards, under load again, Node's own `process.nextTick`
 * (whose object literal has computed symbol keys, called several times per request by the
 * streams) kept taking V8's slow path for defining those properties: GET settings after 18 s
 * of idleness cost 15-18 µs per request instead of 12-14 for as long as it was measured
 * (`perf`: `Runtime_DefineKeyedOwnPropertyInLiteral`, `Map::TransitionToDataProperty` under
 * `endReadable`, `onwrite`, `resume`; docs/performance.md 22). The heap is still collected as
 * it grows (HEAP_GROWING_PERCENT); an idle worker just keeps what it last had.
 */
const NO_MEMORY_REDUCER = '--no-memory-reducer';
/**
 * Scavenges, and the sweeping of array buffers after them, run on the worker's own thread, not
 * on Node's four platform threads. A worker's scavenges are small (a 2 MB semi-space, mostly the
 * live requests), and handing each to helper threads cost more than it saved: they took 6-9 % of
 * a worker's CPU, each hand-over wakes a thread, and on a small machine they take the core the
 * clients or the database need. Two alternated A/Bs (8 and 6 rounds): the small answers used
 * 2-9 % less worker CPU at ×0.96-1.08 req/s (most ×1.02 or more); p99 lower on every row in
 * the first, up to 20 % higher (the toggle) in the second; the large rows and the toggle used
 * the same CPU. Full collections keep their concurrent marking and
 * sweeping: `--single-threaded-gc`, which stops those too, gained as much but raised the
 * user-update rows' peak RSS from 108 to 116 MB (docs/performance.md 27).
 */
const MAIN_THREAD_SCAVENGES = ['--no-parallel-scavenge', '--no-concurrent-array-buffer-sweeping'];
/** The V8 flags of the serving workers, which replace any the operator gave `node` for them. */
const WORKER_V8_FLAGS = [
  `--max-semi-space-size=${SEMI_SPACE_MB}`,
  `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
  NO_MEMORY_REDUCER,
  ...MAIN_THREAD_SCAVENGES,
];
/** A V8 flag's name without its value or `no-` (`--no-memory-reducer` and `--memory-reducer` are one flag). */
const flagName = (arg: string) => arg.split('=')[0]!.replace(/^--no-/, '--');

export interface StartOptions {
  quiet: boolean;
  /** Where start-up lines for the operator go (the URL, the setup link). */
  out: (line: string) => void;
}

/** Resolves `--workers auto` (0) to the number of cores. */
export function workerCount(config: Config): number {
  return config.workers === 0 ? availableParallelism() : config.workers;
}

/** Prints the one-time `/setup` link while no administrator exists (run once, by the primary process). */
async function printSetupLinkIfNeeded(config: Config, out: (line: string) => void): Promise<void> {
  const store = await openConfiguredStore(config);
  try {
    const token = await ensureSetupToken(store);
    if (token) out(`Create the first administrator: ${config.homeUrl}/setup?token=${token}`);
  } finally {
    await store.close();
  }
}

/**
 * A warning when the home URL names the wildcard address (`--host 0.0.0.0` or `::` without
 * SITEWARD_HOME_URL): every link, redirect and REST URL would point at an address no client can open.
 */
export function unreachableHomeUrl(config: Config): string | null {
  const host = new URL(config.homeUrl).hostname;
  if (host !== '0.0.0.0' && host !== '[::]') return null;
  return `Warning: listening on ${config.host} without SITEWARD_HOME_URL, so links and REST URLs would say ${config.homeUrl}/, which no client can open: set SITEWARD_HOME_URL to the address clients use (e.g. https://example.com).`;
}

/**
 * The signals that stop the server cleanly. HUP too: nothing reloads on it, and its default
 * action (when a terminal closes) would kill the process with the job lease still held.
 */
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * Runs `stop` on the first stop signal and ignores the ones after it. A signal to the whole
 * process group (systemd's default KillMode=control-group, `kill -TERM -- -PGID`, Ctrl-C) reaches
 * a worker twice, straight and relayed by the primary: a one-shot handler let the second one
 * kill the worker half-way through its stop, with the job lease still held.
 */
function onStopSignal(stop: (signal: NodeJS.Signals) => void): void {
  let first: NodeJS.Signals | null = null;
  for (const signal of STOP_SIGNALS)
    process.on(signal, () => {
      if (first !== null) return;
      first = signal;
      stop(signal);
    });
}

/** Messages between a stopping worker and the primary about the shared listening socket. */
const STOPPED_LISTENING = 'siteward:stopped-listening';
const LISTENER_CLOSED = 'siteward:listener-closed';
const isMessage = (message: unknown, kind: string) => (message as { siteward?: unknown } | null)?.siteward === kind;

/**
 * A worker's server has just stopped listening: tells the primary and resolves when it answers
 * that no stopping worker takes connections any more (see the primary's side in startServer).
 * Cluster's own message about the closed handle travels first on the same channel, so the
 * primary has dropped this worker from the socket when it reads this one.
 */
function sharedListenerClosed(): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      if (!isMessage(message, LISTENER_CLOSED)) return;
      process.off('message', onMessage);
      resolve();
    };
    process.on('message', onMessage);
    process.send?.({ siteward: STOPPED_LISTENING });
  });
}

/** A serving worker: the app on the shared port, closed gracefully on any stop signal. */
async function startWorker(config: Config, options: StartOptions): Promise<App> {
  const logger = makeLogger(config, options.quiet);
  let app: App | null = null;
  const asked: { signal: NodeJS.Signals | null } = { signal: null };
  const shutdown = (serving: App, signal: NodeJS.Signals) => {
    const began = Date.now();
    serving.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // The event first: once closed, the store takes no writes. A store that is down must not keep the worker from stopping.
    recordServerEvent(serving.store, 'server.stopped', signal)
      .catch((error: unknown) => serving.log.warn({ err: error }, 'could not record server.stopped in the audit log'))
      .then(() => serving.close())
      .then(
        () => {
          serving.log.info({ signal, ms: Date.now() - began }, 'stopped: requests finished, background-jobs lease released, store closed');
          process.exit(0);
        },
        (error: unknown) => {
          serving.log.error({ err: error }, 'error while shutting down');
          process.exit(1);
        },
      );
  };
  // Installed before start-up: a signal that arrives while the store opens still stops cleanly.
  onStopSignal((signal) => {
    asked.signal = signal;
    if (app !== null) shutdown(app, signal);
  });
  const created = await createApp(config, { logger, listenerClosed: sharedListenerClosed });
  if (asked.signal === null) {
    await created.http.listen({ port: config.port, host: config.host });
    await recordServerEvent(created.store, 'server.started').catch((error: unknown) =>
      created.log.warn({ err: error }, 'could not record server.started in the audit log'),
    );
  }
  app = created;
  if (asked.signal !== null) shutdown(app, asked.signal);
  return app;
}

/**
 * `siteward start`: a small primary process that prints the setup link and forks the serving
 * workers (node:cluster, one by default), all on one port and one store. Workers run with a
 * 2 MB V8 semi-space, a 30 % old-generation growth step and at most two malloc arenas, which
 * together keep a worker's memory within its 110 MB budget, and scavenge on their own thread
 * (WORKER_V8_FLAGS; docs/performance.md). A worker that dies after start-up is replaced; one that fails to start stops
 * the whole server with its error, unless the server had served before (then the primary
 * retries with back-off: see WorkerRestarts).
 */
export async function startServer(configured: Config, options: StartOptions): Promise<void> {
  // Files the server creates (database, backups, keys) are its user's alone; workers inherit it.
  process.umask(0o077);
  const config = await withBoundPort(configured);
  if (!cluster.isPrimary) {
    try {
      await startWorker(config, options);
    } catch (error) {
      // Let the worker end once its error is printed (the IPC channel would keep it alive).
      cluster.worker?.disconnect();
      throw error;
    }
    return;
  }
  const workers = workerCount(config);
  const unreachable = unreachableHomeUrl(config);
  if (unreachable) options.out(unreachable);
  // The first sign `siteward backup restore` looks for (the job lease is the second), and the
  // one that keeps a second server off this data directory.
  await mkdir(config.dataDir, { recursive: true });
  const claim = await claimServerPidFile(config.dataDir, Date.now(), config.homeUrl);
  if (!claim.ok) {
    throw new ConfigError(
      `Another Siteward server (pid ${claim.pid} on ${claim.host}) is running on the data directory ${config.dataDir} (${SERVER_PID_FILE}): stop it first, or give this one its own SITEWARD_DATA_DIR.`,
    );
  }
  try {
    await ensurePortAvailable(config);
    await printSetupLinkIfNeeded(config, options.out);
  } catch (error) {
    await removeServerPidFile(config.dataDir);
    throw error;
  }
  const exit = (code: number) => void removeServerPidFile(config.dataDir).finally(() => process.exit(code));
  let stopping = false;
  let announced = false;
  const listening = new Set<number>();
  cluster.setupPrimary({
    execArgv: [...process.execArgv.filter((a) => !WORKER_V8_FLAGS.some((flag) => flagName(a) === flagName(flag))), ...WORKER_V8_FLAGS],
  });
  const fork = () => cluster.fork({ MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' });
  /** Stops the workers with `signal` (the one the primary got, so that their logs name it). */
  const stop = (code: number, signal: NodeJS.Signals = 'SIGTERM') => {
    if (stopping) return;
    stopping = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined && !w.isDead());
    if (alive.length === 0) return exit(code);
    let left = alive.length;
    cluster.on('exit', () => {
      if (--left <= 0) exit(code);
    });
    for (const w of alive) w!.process.kill(signal);
  };
  // A stopping worker first lets go of the shared socket, then waits for this answer before it
  // sends anyone a `Connection: close` (src/http/shutdown-gate.ts): a client reconnecting
  // earlier could be handed to another worker that is closing too, and connections the primary
  // still holds for the last worker are dropped when it lets go (a reset). So the answer comes
  // once no stopping worker listens. A worker stopped on its own (the others keep serving)
  // gets it after STOP_SKEW_MS, the time a signal to the whole group takes to reach every process.
  const STOP_SKEW_MS = 100;
  const stoppedListening = new Set<number>();
  const waiting = new Set<Worker>();
  const release = () => {
    // A worker whose channel closed meanwhile is past waiting: a failed send is nothing to report.
    for (const w of waiting) if (!w.isDead() && w.isConnected()) w.send({ siteward: LISTENER_CLOSED }, () => undefined);
    waiting.clear();
  };
  const settle = () => {
    const live = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
    if (live.every((w) => !listening.has(w.id) || stoppedListening.has(w.id))) release();
  };
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage(message, STOPPED_LISTENING)) return;
    stoppedListening.add(worker.id);
    waiting.add(worker);
    settle();
    setTimeout(() => (stopping ? settle() : release()), STOP_SKEW_MS).unref();
  });
  cluster.on('exit', () => settle());
  const restarts = new WorkerRestarts();
  cluster.on('listening', (worker, address) => {
    listening.add(worker.id);
    restarts.listening();
    if (!announced && listening.size >= workers) {
      announced = true;
      const tls = config.tlsCert ? ' with TLS' : '';
      options.out(
        `Siteward is running at ${config.homeUrl}/ with ${workers} worker${workers === 1 ? '' : 's'} (listening on ${config.host}:${address.port}${tls})`,
      );
      options.out(`REST API: ${createRestUrlBuilder(config)('/')}`);
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const hadListened = listening.delete(worker.id);
    const decision = restarts.exited(hadListened);
    if (decision.kind === 'stop') {
      // It never served: a start-up error (already printed by the worker). Retrying would loop.
      options.out(`${decision.reason} (exit ${signal ?? code}); stopping`);
      stop(1);
      return;
    }
    const what = hadListened ? 'exited' : 'could not start';
    options.out(`worker ${worker.process.pid} ${what} (${signal ?? code}); starting another in ${(decision.afterMs / 1000).toFixed(1)} s`);
    // A stop signal during the back-off ends it: no worker is started into a stopping server.
    setTimeout(() => (stopping ? undefined : fork()), decision.afterMs);
  });
  // The workers log the stop (JSON lines); the primary waits for them, then removes server.pid.
  onStopSignal((signal) => stop(0, signal));
  for (let i = 0; i < workers; i++) fork();
}
