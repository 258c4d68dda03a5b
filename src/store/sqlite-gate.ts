import { AsyncLocalStorage } from 'node:async_hooks';
import { currentRequestBatch } from '../core/request-batch.js';
import { TransactionMisuseError } from './errors.js';

/** Rows 1 (options) and 2 (credentials) of `state_version`, read together in one statement. */
export interface StateVersions {
  readonly options: number;
  readonly credentials: number;
}

/**
 * A FIFO async mutex over one SQLite database file, shared by every Store of this process that
 * opened the file (see `gateFor`).
 *
 * Why: better-sqlite3 is synchronous, so a statement that waits for another connection's write
 * lock blocks the whole event loop (busy_timeout). If that lock belongs to a transaction of
 * this same process that is awaiting something, it can never finish: a deadlock until the
 * timeout. So anything that may hold a lock across an `await` (transactions, migrations) holds
 * the gate, and every other statement of this process waits for the gate first. Other
 * processes are separated by SQLite's own locking; there blocking is harmless.
 *
 * Code inside a transaction that reaches for a store instead of `tx` would wait for itself
 * forever; it gets a TransactionMisuseError instead.
 */
export class SqliteGate {
  /**
   * The state versions as read during the current event-loop turn, shared by every Store of
   * this process on the file. Reusing them within one turn is safe: a request that arrives after
   * another process committed a write is read from the socket in a later poll phase, so it
   * never sees versions read before that commit; and a read made earlier in the same turn than
   * the poll phase that brought the request (a timer's) belongs to another request batch (see
   * core/request-batch.ts) and is not reused. Own writes forget them at once.
   */
  private turnVersions: { versions: StateVersions; batch: number } | undefined;
  private turnResetScheduled = false;
  private held = false;
  private readonly waiters: (() => void)[] = [];
  private readonly context = new AsyncLocalStorage<SqliteGate>();

  /** True when nobody holds the gate or waits for it: a synchronous operation may run now. */
  get free(): boolean {
    return !this.held && this.waiters.length === 0;
  }

  /** The versions read earlier in this turn and request batch, when nothing has written since. */
  cachedVersions(): StateVersions | undefined {
    const turn = this.turnVersions;
    return this.free && turn !== undefined && turn.batch === currentRequestBatch() ? turn.versions : undefined;
  }

  rememberVersions(versions: StateVersions): void {
    this.turnVersions = { versions, batch: currentRequestBatch() };
    if (this.turnResetScheduled) return;
    this.turnResetScheduled = true;
    setImmediate(() => {
      this.turnVersions = undefined;
      this.turnResetScheduled = false;
    });
  }

  forgetVersions(): void {
    this.turnVersions = undefined;
  }

  /** Throws when called from inside a transaction holding this gate. */
  assertOutsideTransaction(): void {
    if (this.held && this.context.getStore() === this) throw new TransactionMisuseError();
  }

  /** Runs a synchronous operation once the gate is free (no await in between: nothing can slip in). */
  async run<T>(op: () => T): Promise<T> {
    if (this.free) return op();
    return this.hold(() => Promise.resolve().then(op));
  }

  /** Holds the gate for an asynchronous operation that must not overlap a transaction. */
  async hold<T>(fn: () => Promise<T>): Promise<T> {
    this.assertOutsideTransaction();
    await this.acquire();
    try {
      return await fn();
    } finally {
      // A transaction may have written options or credentials.
      this.turnVersions = undefined;
      this.release();
    }
  }

  /**
   * Holds the gate for a transaction; calls back into the gate from `fn` are refused.
   * The context is switched off again afterwards: on Node 20 an enabled AsyncLocalStorage
   * installs process-wide promise hooks that cost every request about 14 % of its CPU, and
   * the gate runs one transaction at a time, so nothing else needs it meanwhile.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.hold(async () => {
      try {
        return await this.context.run(this, fn);
      } finally {
        this.context.disable();
      }
    });
  }

  private acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private release(): void {
    const next = this.waiters.shift();
    // Hand the gate straight to the next waiter so nobody can overtake it.
    if (next) next();
    else this.held = false;
  }
}

const gates = new Map<string, { gate: SqliteGate; users: number }>();

/** The gate of a database file (by real path); release it with `releaseGate` when the store closes. */
export function gateFor(file: string): SqliteGate {
  let entry = gates.get(file);
  if (!entry) {
    entry = { gate: new SqliteGate(), users: 0 };
    gates.set(file, entry);
  }
  entry.users += 1;
  return entry.gate;
}

export function releaseGate(file: string): void {
  const entry = gates.get(file);
  if (entry && --entry.users === 0) gates.delete(file);
}
