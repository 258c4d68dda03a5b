/**
 * The pool of the host in use, found again when that host stops being usable: after a
 * failover the old primary is gone (connections refused or reset, 57P01–57P03) or was demoted
 * (writes fail with 25006 until the connection is dropped, services-facts.md §6). One search
 * runs at a time; a new host gets a new pool and the old one is ended once its clients are
 * back. With one host and `target_session_attrs=any` nothing here runs (pg-store.ts).
 */
import type pg from 'pg';
import { findHost, type PgHost, type PgTarget } from './pg-hosts.js';

export interface HostPoolsOptions {
  readonly target: PgTarget;
  /** Settings for a connection to `host` (timeouts, search_path). */
  readonly configFor: (host: PgHost) => pg.ClientConfig;
  /** A new pool for `host`. */
  readonly newPool: (host: PgHost) => pg.Pool;
  /** Bounds one probe of one host (the connect timeout). */
  readonly probeTimeoutMs: number;
  /** The host in use changed (logged by the caller). */
  readonly onSwitch?: (from: PgHost | null, to: PgHost) => void;
  /** Searches no more often than this after a failed one (ms). Default 250. */
  readonly retryGapMs?: number;
  readonly find?: typeof findHost;
}

export class HostPools {
  private host: PgHost | null = null;
  private pool: pg.Pool | null = null;
  private search: Promise<pg.Pool> | null = null;
  private lastFailedSearch = -Infinity;
  private closed = false;
  private readonly retired = new Set<Promise<void>>();

  constructor(private readonly opts: HostPoolsOptions) {}

  /** The host in use (null before the first search succeeded). */
  current(): PgHost | null {
    return this.host;
  }

  /**
   * A client from the host in use (searching for one first when there is none); a connection
   * refused there starts one search for another host and one more try. Nothing has run on a
   * client that failed to connect, so that retry is always safe.
   */
  async connect(): Promise<pg.PoolClient> {
    const pool = this.pool ?? (await this.find());
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      if (!isHostDown(error)) throw error;
      this.failed(pool);
      const next = await this.find();
      client = await next.connect();
      this.lentBy.set(client, next);
      return client;
    }
    this.lentBy.set(client, pool);
    return client;
  }

  /**
   * `client` failed with a host-down error (reset, shutdown, or 25006 on a write): the next
   * connection comes from a fresh search. Once per pool: later failures of its other clients
   * do not retire the new host's pool.
   */
  hostDown(client: pg.PoolClient): void {
    this.failed(this.lentBy.get(client));
  }

  /**
   * Something outside the pool (the LISTEN connection) found the host in use gone: search again
   * now, so the listener's next try goes to the new primary even while no request came.
   */
  suspect(): void {
    if (this.pool) this.failed(this.pool);
    // Searches are one at a time and spaced after a failed one, so a listener retrying in a
    // loop while no host is writable does not probe every host on each try.
    void this.find().catch(() => undefined);
  }

  private readonly lentBy = new WeakMap<pg.PoolClient, pg.Pool>();

  private failed(pool: pg.Pool | undefined): void {
    if (pool === undefined || pool !== this.pool) return;
    this.retire(pool);
    this.pool = null;
  }

  async end(): Promise<void> {
    this.closed = true;
    if (this.pool) this.retire(this.pool);
    this.pool = null;
    await Promise.all(this.retired);
  }

  private find(): Promise<pg.Pool> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    this.search ??= this.runSearch().finally(() => (this.search = null));
    return this.search;
  }

  private async runSearch(): Promise<pg.Pool> {
    // Right after a search that found nothing, a burst of requests must not each probe every host.
    const wait = this.lastFailedSearch + (this.opts.retryGapMs ?? 250) - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    let host: PgHost;
    try {
      host = await (this.opts.find ?? findHost)(this.opts.target, this.opts.configFor, this.opts.probeTimeoutMs);
    } catch (error) {
      this.lastFailedSearch = performance.now();
      throw error;
    }
    if (this.closed) throw new Error('the store is closed');
    const before = this.host;
    const pool = this.opts.newPool(host);
    this.host = host;
    this.pool = pool;
    if (before === null || before.host !== host.host || before.port !== host.port) this.opts.onSwitch?.(before, host);
    return pool;
  }

  /** Ends `pool` once the clients it lent are back (pg-pool's end waits for them). */
  private retire(pool: pg.Pool): void {
    const done = pool.end().catch(() => undefined);
    this.retired.add(done);
    void done.then(() => this.retired.delete(done));
  }
}

/** SQLSTATEs and socket errors that mean the host itself is gone or going (not a bad query). */
const HOST_DOWN = new Set(['57P01', '57P02', '57P03', '25006', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Whether `error` (or its cause) says the host in use is gone, shutting down or a standby now. */
export function isHostDown(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && HOST_DOWN.has(code)) return true;
    if (/Connection terminated unexpectedly|Client has encountered a connection error/i.test(e.message)) return true;
  }
  return false;
}
