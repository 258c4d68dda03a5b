import type pg from 'pg';
import { ServiceUnavailableError } from '../core/unavailable.js';
import { isHostDown } from './pg-failover.js';
import type { StatementNames } from './pg-prepared.js';
import { isRead, isStatement, markNotApplied, neverSent, NotAppliedError } from './pg-retry.js';

/**
 * PostgreSQL errors that mean "the database is down, restarting, refusing connections or not
 * answering in time" rather than "this query is wrong": SQLSTATE classes 08 (connection) and
 * 57P (operator intervention: shutdown, crash recovery), too many connections, a statement
 * cancelled by its timeout, and the socket-level failures of the driver.
 */
const UNAVAILABLE_CODES = new Set([
  // A read-only transaction: the host was a primary and is a standby now (a failover); its
  // connections are dropped and the next ones go to the new primary (pg-failover.ts).
  '25006',
  '57P01',
  '57P02',
  '57P03',
  '57014',
  '53300',
  '53400',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|connection timeout|Connection ended/i;

/** The error as a ServiceUnavailableError when it is one of the outage kind; otherwise unchanged. */
export function classifyPgError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) {
    return new ServiceUnavailableError('store', code, { cause: error });
  }
  if (UNAVAILABLE_MESSAGES.test(error.message)) return new ServiceUnavailableError('store', error.message, { cause: error });
  return error;
}

export interface PgTimeouts {
  /** Giving up on opening a connection (ms). */
  connectTimeoutMs: number;
  /** Longest statement, enforced by the server and, for a frozen server, by the client (ms). */
  statementTimeoutMs: number;
}

/** Pool settings for the timeouts: a database that stops answering must not hang requests. */
export function poolTimeouts(timeouts: PgTimeouts): pg.PoolConfig {
  return {
    // pg-pool applies this to waiting for a pooled connection too: that wait is part of a
    // request's bound (the statement timeout), so it never exceeds it.
    connectionTimeoutMillis: Math.min(timeouts.connectTimeoutMs, timeouts.statementTimeoutMs),
    statement_timeout: timeouts.statementTimeoutMs,
    // The server cannot enforce anything while it is frozen: the client gives up a little later.
    query_timeout: timeouts.statementTimeoutMs + 500,
    keepAlive: true,
  };
}

/** What Kysely's PostgresDialect needs of a pool. */
export interface DialectPool {
  connect(): Promise<pg.PoolClient>;
  end(): Promise<void>;
}

/** Where clients come from: one pg.Pool, or the pool of the host in use (pg-failover.ts). */
export interface ClientSource extends DialectPool {
  /** A client it lent failed in a way that says its host is gone or a standby now. */
  hostDown?(client: pg.PoolClient): void;
}

/**
 * Reports `pool`'s connection failures to `onError` instead of crashing the process: pg-pool
 * listens for a client's `error` only while it is idle.
 */
export function watchPool(pool: pg.Pool, onError: (error: Error) => void): pg.Pool {
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  return pool;
}

/**
 * A server that does not answer at all (frozen: SIGSTOP, a hung host, a dropped network path)
 * cannot even cancel a statement at its `statement_timeout`, so a query gives up only at the
 * client-side bound, and a request that runs several statements would wait that long for each.
 * The first such timeout therefore "trips" the pool: every query and connection wait in flight
 * fails at once, and new ones fail without waiting, while a probe (`SELECT 1`, one at a time,
 * every PROBE_INTERVAL_MS) asks until the server answers again. So no request waits for the
 * frozen server longer than one statement's bound (the statement timeout + 0.5 s) in all.
 * Only a full-length client-side timeout or a new connection's timeout trips it: a statement
 * the server cancelled itself (57014) means it is alive.
 */
class FreezeBreaker {
  private open = false;
  private probing: NodeJS.Timeout | null = null;
  private ended = false;
  private readonly waits = new Set<(error: Error) => void>();

  constructor(private readonly probe: () => Promise<void>) {}

  get isOpen(): boolean {
    return this.open;
  }

  /** `work`, failed at once when the breaker trips while it waits. */
  bound<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waits.add(reject);
      work.then(
        (value) => {
          this.waits.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          this.waits.delete(reject);
          reject(error as Error);
        },
      );
    });
  }

  trip(): void {
    const waits = [...this.waits];
    this.waits.clear();
    for (const reject of waits) reject(notAnswering());
    if (this.open || this.ended) return;
    this.open = true;
    this.scheduleProbe(0);
  }

  end(): void {
    this.ended = true;
    if (this.probing) clearTimeout(this.probing);
    this.probing = null;
  }

  private scheduleProbe(ms: number): void {
    this.probing = setTimeout(() => {
      this.probe().then(
        () => {
          this.probing = null;
          this.open = false;
        },
        () => {
          if (!this.ended) this.scheduleProbe(PROBE_INTERVAL_MS);
        },
      );
    }, ms);
    this.probing.unref();
  }
}

/** How often a tripped pool asks whether the server answers again. */
const PROBE_INTERVAL_MS = 250;

const notAnswering = () => new ServiceUnavailableError('store', 'the database is not answering (waiting for it to answer again)');

/** A client-side timeout or a new connection's timeout: the server is not answering at all. */
function meansFrozen(error: unknown): boolean {
  return error instanceof Error && /^(Query read timeout|Connection terminated due to connection timeout)/.test(error.message);
}

/** What a held-back `begin` (or the commit of a transaction that ran nothing) answers. */
const NOTHING_RUN = { command: null, rowCount: null, rows: [] };

/**
 * The pool as the dialect sees it: every connection failure and every failed query of the
 * outage kind becomes a ServiceUnavailableError, and a checked-out client that loses its
 * connection reports it to its query instead of crashing the process with an unhandled
 * `error` event (pg-pool listens only while a client is idle). With `statements`, a query with
 * parameters runs as a named prepared statement (see pg-prepared.ts).
 *
 * A failure that certainly changed nothing becomes a NotAppliedError (pg-retry.ts); a read
 * outside a transaction cut off that way runs again once here, on a fresh connection (from a
 * new host search when the host went away), within what is left of the client-side bound.
 */
export function resilientPool(pool: ClientSource, statements?: StatementNames, clientTimeoutMs?: number): DialectPool {
  const breaker = new FreezeBreaker(async () => {
    const client = await pool.connect();
    try {
      await client.query({ text: 'SELECT 1', ...(clientTimeoutMs === undefined ? {} : { query_timeout: clientTimeoutMs }) });
      client.release();
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  });
  /** A connection, failed at once when the breaker trips while it waits; errors classified. */
  const connectBound = async (): Promise<pg.PoolClient> => {
    if (breaker.isOpen) throw notAnswering();
    const connecting = pool.connect();
    try {
      return await breaker.bound(connecting);
    } catch (error) {
      if (meansFrozen(error)) breaker.trip();
      // A connection that arrives after the breaker gave up on it goes back, unused.
      connecting.then(
        (late) => late.release(true),
        () => undefined,
      );
      throw classifyPgError(error);
    }
  };
  return {
    async connect() {
      const asked = performance.now();
      // The client in use: a read cut off runs again on another one (null: none, it was given back).
      let client: pg.PoolClient | null = await connectBound();
      // The first statement gets what is left of the client-side bound after the wait for this
      // connection, so waiting plus running stays within it (a frozen server answers neither).
      let firstTimeoutMs =
        clientTimeoutMs === undefined ? undefined : Math.max(1, Math.round(clientTimeoutMs - (performance.now() - asked)));
      // A connection that failed with an outage-kind error is destroyed on release, not reused:
      // after a client-side timeout its query may still be pending on the server.
      let broken: Error | undefined;
      // Speed: Kysely's `begin` is held back and sent with the transaction's first statement
      // when that one has no parameters (one simple-protocol round trip for both, see
      // options-kysely.ts's bump); a transaction that runs nothing sends neither.
      let beginHeld = false;
      // Where the statements stand, to tell what a failure may have changed (pg-retry.ts).
      let inTransaction = false;
      let commitSent = false;
      let readRetried = false;
      const run = (args: unknown[], timeoutMs?: number): Promise<unknown> => {
        const [text, values] = args;
        const name =
          statements && typeof text === 'string' && Array.isArray(values) && values.length > 0 ? statements.nameOf(text) : undefined;
        const timeout = timeoutMs ?? firstTimeoutMs;
        firstTimeoutMs = undefined;
        const form = name !== undefined || (timeout !== undefined && typeof text === 'string');
        const config = {
          ...(name === undefined ? {} : { name }),
          text,
          ...(Array.isArray(values) ? { values } : {}),
          ...(timeout === undefined ? {} : { query_timeout: timeout }),
        };
        if (breaker.isOpen || client === null) {
          broken = notAnswering();
          return Promise.reject(broken);
        }
        const used = client;
        const place = { text, inTransaction, commitSent: commitSent || isStatement(text, 'commit') };
        if (isStatement(text, 'commit')) commitSent = true;
        const startedAt = performance.now();
        const result = (used.query as (...a: unknown[]) => unknown)(...(form ? [config] : args));
        if (!(result instanceof Promise)) return Promise.resolve(result);
        return breaker.bound(result).catch(async (error: unknown) => {
          // A client-side timeout at least 250 ms after the server should have cancelled the
          // statement itself: it could not, it is not answering at all.
          if (meansFrozen(error) && (timeout === undefined || clientTimeoutMs === undefined || timeout >= clientTimeoutMs - 250))
            breaker.trip();
          // A COMMIT the driver never sent did not commit.
          if (isStatement(text, 'commit') && neverSent(error)) commitSent = false;
          const classified = markNotApplied(error, classifyPgError(error), { ...place, commitSent: place.commitSent && !neverSent(error) });
          if (classified instanceof ServiceUnavailableError) broken = classified;
          if (isHostDown(error)) pool.hostDown?.(used);
          const left = clientTimeoutMs === undefined ? undefined : clientTimeoutMs - (performance.now() - startedAt);
          if (!(classified instanceof NotAppliedError) || place.inTransaction || !isRead(text) || readRetried) throw classified;
          if (left !== undefined && left < MIN_RETRY_MS) throw classified;
          // The read changed nothing: once more, on another connection.
          readRetried = true;
          used.release(classified);
          client = null;
          client = await connectBound();
          broken = undefined;
          return run(args, left === undefined ? undefined : Math.max(1, Math.round(clientTimeoutMs! - (performance.now() - startedAt))));
        });
      };
      const query = (...args: unknown[]): Promise<unknown> | unknown => {
        const [text, values] = args;
        const plain = typeof text === 'string' && (values === undefined || (Array.isArray(values) && values.length === 0));
        if (plain && isStatement(text, 'begin')) inTransaction = true;
        if (plain && (isStatement(text, 'commit') || isStatement(text, 'rollback'))) inTransaction = false;
        if (plain && text === 'begin' && !beginHeld) {
          beginHeld = true;
          return Promise.resolve(NOTHING_RUN);
        }
        if (!beginHeld) return run(args);
        beginHeld = false;
        if (plain && (text === 'commit' || text === 'rollback')) return Promise.resolve(NOTHING_RUN);
        if (!plain) return run(['begin']).then(() => run(args));
        // Several statements in one simple query answer with one result each: Kysely wants the last.
        return run([`begin; ${String(text)}`]).then((results) => (Array.isArray(results) ? (results.at(-1) as unknown) : results));
      };
      const first = client;
      return new Proxy(first, {
        get(_target, prop) {
          if (prop === 'release')
            return () => {
              beginHeld = false;
              client?.release(broken ?? undefined);
              client = null;
            };
          if (prop === 'query') return query;
          const current = client ?? first;
          const value = Reflect.get(current, prop, current) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(current) : value;
        },
      });
    },
    end: () => {
      breaker.end();
      return pool.end();
    },
  };
}

/** A read cut off with less than this left of its bound is not run again (ms). */
const MIN_RETRY_MS = 100;
