import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Longest time a read trusts pushed versions without asking the database once (the safety re-check). */
export const VERSION_RECHECK_MS = 1000;
/** Reconnecting a lost listener: first wait, doubled per failure up to the last. */
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5000;

/**
 * The notification channel of one store's schema: several stores (and test schemas) share a
 * database, and each must hear only its own writes. A schema name that is not a plain short
 * identifier is hashed so the channel stays a valid identifier of at most 63 bytes.
 */
export function versionChannel(schema: string): string {
  return /^[a-z_][a-z0-9_]{0,53}$/.test(schema)
    ? `siteward_${schema}`
    : `siteward_h${createHash('sha256').update(schema).digest('hex').slice(0, 40)}`;
}

/** The payload of a version notification: `<state_version row>:<new version>`. */
export function versionPayload(row: number, version: number): string {
  return `${row}:${version}`;
}

export interface VersionWatchOptions {
  /** A new, unconnected client with the store's connection settings (search_path included). */
  newClient: () => pg.Client;
  channel: string;
  /** The `state_version` rows to follow (absent rows read as 0). */
  rows: readonly number[];
  recheckMs: number;
  clock: () => number;
  /** The listener was lost or (re)connected: every cache built on pushed versions must go. */
  onDropped: () => void;
  /** A listener connection failed (logged by the caller; the watch reconnects by itself). */
  onError: (error: Error) => void;
}

export type VersionFeed = { readonly listening: boolean; readonly connects: number };

/**
 * Versions of `state_version` rows pushed by PostgreSQL LISTEN/NOTIFY, so that reads need no
 * round trip to learn whether a cache is current (speed: that round trip was the cost of every
 * options read and every cookie request on PostgreSQL, ~200 µs).
 *
 * Writers notify in the transaction that commits the new version, so a notification is only
 * ever delivered for a committed version, and in commit order. Rules that keep it correct:
 * - Only while the dedicated listening connection is up and has read the versions after its
 *   LISTEN does `trusted` answer; otherwise every read asks the database (`checked`).
 * - Losing the listener drops the caches; the reconnect (with back-off) reads the versions again.
 * - At most `recheckMs` after the last database read of a row, a read asks the database again,
 *   so a missed notification (or a listener that died silently) is stale for at most that long.
 * - A write of this process reports its committed version at once (`committed`): read-your-writes.
 */
export class VersionWatch {
  private client: pg.Client | null = null;
  private listening = false;
  private connects = 0;
  private closed = false;
  private retryMs = RECONNECT_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly known = new Map<number, number>();
  /** When each row's version was last raised (a database read started later must see it). */
  private readonly knownAt = new Map<number, number>();
  /** When each row was last read from the database (the start of that read). */
  private readonly checkedAt = new Map<number, number>();

  constructor(private readonly opts: VersionWatchOptions) {}

  /** Starts listening in the background; reads ask the database until it is up. */
  start(): void {
    void this.connect();
  }

  /** The version of `row` to trust without a query, or undefined when the database must be asked. */
  trusted(row: number): number | undefined {
    if (!this.listening) return undefined;
    const checked = this.checkedAt.get(row);
    if (checked === undefined || this.opts.clock() - checked >= this.opts.recheckMs) return undefined;
    return this.known.get(row);
  }

  /** A committed version read from the database by a query that started at `startedAt`. */
  checked(row: number, version: number, startedAt: number): void {
    const known = this.known.get(row);
    // Lower than what we know, although the query started after we learned it: the database
    // really went back (a restore), so trust it rather than wait forever for that version.
    if (known !== undefined && version < known && startedAt > (this.knownAt.get(row) ?? Infinity)) this.set(row, version);
    else this.raise(row, version);
    this.checkedAt.set(row, Math.max(this.checkedAt.get(row) ?? -Infinity, startedAt));
  }

  /** A version committed by this process's own write. */
  committed(row: number, version: number): void {
    this.raise(row, version);
  }

  feed(): VersionFeed {
    return { listening: this.listening, connects: this.connects };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /**
   * The host in use changed (a failover): NOTIFY is sent on the new primary now, so the
   * listener moves there at once (`newClient` connects to the host in use), and, as after any
   * reconnect, the versions are read again and the caches dropped: notices sent in the gap are
   * lost. A listener still connected to the old primary (fenced, not dead) would hear nothing.
   */
  reconnect(): void {
    if (this.closed) return;
    this.retryMs = RECONNECT_FIRST_MS;
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
      void this.connect();
      return;
    }
    // Its 'end' is handled as a lost listener: caches dropped, a new connection shortly.
    void this.client?.end().catch(() => undefined);
  }

  private raise(row: number, version: number): void {
    if (version > (this.known.get(row) ?? -Infinity)) this.set(row, version);
  }

  private set(row: number, version: number): void {
    this.known.set(row, version);
    this.knownAt.set(row, this.opts.clock());
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = this.opts.newClient();
    this.client = client;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (error) this.opts.onError(error);
      if (this.client === client) this.client = null;
      this.listening = false;
      this.opts.onDropped();
      client.end().catch(() => undefined);
      this.retry();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.channel !== this.opts.channel || message.payload === undefined) return;
      const match = /^(\d+):(\d+)$/.exec(message.payload);
      if (match) this.raise(Number(match[1]), Number(match[2]));
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.opts.channel}"`);
      // After LISTEN: every later commit is notified, every earlier one is in these rows.
      const startedAt = this.opts.clock();
      const result = await client.query<{ id: number; v: string | number }>('SELECT id, v FROM state_version WHERE id = ANY($1::int[])', [
        this.opts.rows,
      ]);
      if (lost || this.closed) return;
      const read = new Map(result.rows.map((r) => [Number(r.id), Number(r.v)]));
      // Not a plain overwrite: a notification handled before this answer may already be newer.
      for (const row of this.opts.rows) this.checked(row, read.get(row) ?? 0, startedAt);
      this.retryMs = RECONNECT_FIRST_MS;
      this.connects += 1;
      this.listening = true;
      // Caches may have been checked against versions from before the gap: reload them.
      this.opts.onDropped();
    } catch (error) {
      onLost(error instanceof Error ? error : new Error(String(error)));
    } finally {
      if (this.closed) await client.end().catch(() => undefined);
    }
  }

  private retry(): void {
    if (this.closed || this.retryTimer) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(RECONNECT_MAX_MS, this.retryMs * 2);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, wait);
    this.retryTimer.unref();
  }
}
