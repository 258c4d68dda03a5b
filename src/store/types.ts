import type { Kysely } from 'kysely';
import type { JsonValue } from '../core/json.js';
import type { AuditCheckpoint, AuditEvent, AuditEventInput, AuditResult } from '../wire/audit.js';

/**
 * Key → JSON value site options (plugin settings, module activation list, module options,
 * dismissed notices, connection state). Autoloaded options are served from an in-memory cache
 * that is invalidated by a state version shared through the store.
 */
export interface OptionsRepo {
  /** The stored value, or undefined when the option does not exist. */
  get(key: string): Promise<JsonValue | undefined>;
  /** Several values at once (missing keys are absent from the map). */
  getMany(keys: readonly string[]): Promise<Map<string, JsonValue>>;
  /** Creates or replaces an option. `autoload` defaults to true. */
  set(key: string, value: JsonValue, autoload?: boolean): Promise<void>;
  /** Removes an option; no error when absent. */
  delete(key: string): Promise<void>;
  /**
   * Atomic read-modify-write: `fn` gets the current value and returns the new one
   * (undefined deletes). Concurrent updates of one key from any process never lose a write.
   * Returns the new value.
   */
  update(key: string, fn: (current: JsonValue | undefined) => JsonValue | undefined): Promise<JsonValue | undefined>;
  /** A number that changes whenever any option changes (in any process sharing the store). */
  version(): Promise<number>;
  /** `version()`'s answer when known without a query (a fast path); undefined otherwise. */
  knownVersion?(): number | undefined;
}

/** The part of the store available inside a transaction. */
export interface StoreTx {
  readonly options: OptionsRepo;
  /**
   * Records an audit event with this transaction's changes (docs/audit-log.md): it is written
   * just before the commit, in the same database transaction (on PostgreSQL's options batches,
   * in the same statement), so there is no change without its event and no event without its
   * change. A transaction that throws records nothing; one that runs again records again.
   */
  audit(event: AuditEventInput): void;
}

/** Which events `auditLog.list`/`count` return; every member narrows. */
export interface AuditFilter {
  /** An exact action, or a prefix ending with `.` or `*` (`module.` / `module.*`). */
  readonly action?: string;
  readonly actorUserId?: number;
  readonly objectType?: string;
  readonly objectId?: string;
  readonly result?: AuditResult;
  /** Events at or after this time (UTC ms). */
  readonly after?: number;
  /** Events before this time (UTC ms). */
  readonly before?: number;
  /** Substring of the event's JSON, case-insensitive for ASCII. */
  readonly search?: string;
  /** Events with a larger id (keyset paging: exports walk the log with it). */
  readonly idAfter?: number;
  /** Events with this id or a smaller one (an export stops at the head it started from). */
  readonly idAtMost?: number;
}

/** A row as stored, for verification. */
export interface StoredAuditRow {
  readonly id: number;
  readonly time: number;
  readonly action: string;
  readonly result: string;
  readonly actorUserId: number;
  readonly objectType: string;
  readonly objectId: string;
  readonly data: string;
  readonly hash: string;
}

/** The chain's head as stored: the last id, its hash and the number of events ever written. */
export interface AuditHead {
  readonly lastId: number;
  readonly hash: string;
  readonly count: number;
}

/** The audit log's table (appends, reads, checkpoints, purges). */
export interface AuditLogRepo {
  /** Writes events in a transaction of their own (events that change nothing else: start-up, jobs). */
  append(events: readonly AuditEventInput[]): Promise<void>;
  /**
   * `append`, but the first event gets an id above `afterId` even when the head is lower (the
   * head, and its count, skip to `afterId`): after a break at the chain's end, a note about the
   * break (`audit.verify_failed`) must not fill the missing row verification names.
   */
  appendBeyond(events: readonly AuditEventInput[], afterId: number): Promise<void>;
  /** Newest first (or oldest first with `order: 'asc'`). */
  list(
    filter: AuditFilter,
    page: { readonly limit: number; readonly offset: number; readonly order?: 'asc' | 'desc' },
  ): Promise<AuditEvent[]>;
  /** `list`'s events as stored (id and canonical JSON, not parsed): the REST list writes the JSON as it is. */
  listStored(
    filter: AuditFilter,
    page: { readonly limit: number; readonly offset: number; readonly order?: 'asc' | 'desc' },
  ): Promise<{ readonly id: number; readonly data: string }[]>;
  count(filter: AuditFilter): Promise<number>;
  /**
   * Up to `limit` matching events oldest first, as stored (id and canonical JSON, not parsed):
   * exports walk the log with `idAfter` and write the JSON as it is.
   */
  page(filter: AuditFilter, limit: number): Promise<{ readonly id: number; readonly data: string }[]>;
  get(id: number): Promise<AuditEvent | undefined>;
  /** Up to `limit` stored rows with id > `afterId`, by id (verification and exports walk with it). */
  rows(afterId: number, limit: number): Promise<StoredAuditRow[]>;
  head(): Promise<AuditHead>;
  addCheckpoint(checkpoint: AuditCheckpoint): Promise<void>;
  /** Every checkpoint, by `last_id`. */
  checkpoints(): Promise<AuditCheckpoint[]>;
  /** The newest event id older than `time`, or null. */
  lastIdBefore(time: number): Promise<number | null>;
  /** Deletes up to `batch` of the oldest rows with id <= `lastId` (one short statement); returns how many. */
  purgeThrough(lastId: number, batch: number): Promise<number>;
  /** Deletes checkpoints older than `lastId` (those before a retention cut). */
  dropCheckpointsBefore(lastId: number): Promise<void>;
  /**
   * Counts one failed login of `login` from `address` in the window (of `windowMs`) holding
   * `now`: one counter row per address, login and window, however many failures.
   */
  countFailedLogin(address: string, login: string, now: number, windowMs: number): Promise<void>;
  /**
   * Turns the counters of windows that ended by `now` into one `login.failed` event each (with
   * count, first and last time), in one transaction with their deletion; returns how many.
   */
  flushFailedLogins(now: number, windowMs: number): Promise<number>;
  /** Counter rows not yet flushed (tests, health). */
  pendingFailedLogins(): Promise<number>;
}

/** A stored user (WordPress's `wp_users` row, trimmed to what Siteward needs). */
export interface UserRecord {
  readonly id: number;
  readonly login: string;
  readonly email: string;
  readonly displayName: string;
  /** argon2id PHC string; never the password itself. */
  readonly passHash: string;
  /** Registration time, milliseconds since the epoch. */
  readonly registered: number;
}

/** What `users.create` needs. `registered` defaults to now. */
export interface NewUser {
  readonly login: string;
  readonly email: string;
  readonly displayName: string;
  readonly passHash: string;
  readonly registered?: number;
}

/** The user-meta key that holds a user's role names (a JSON list, e.g. `["editor"]`). */
export const ROLES_META_KEY = 'capabilities';

/** The role names in a stored `capabilities` meta value ([] when none). */
export function rolesOf(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((r): r is string => typeof r === 'string') : [];
}

/**
 * Users. Logins and e-mail addresses are unique without regard to ASCII case
 * (WordPress's MySQL collation behaves the same way).
 */
export interface UsersRepo {
  /** Inserts a user; a duplicate login or e-mail rejects with a `UniqueViolationError` (store/errors.ts). */
  create(user: NewUser): Promise<UserRecord>;
  byId(id: number): Promise<UserRecord | undefined>;
  byLogin(login: string): Promise<UserRecord | undefined>;
  byEmail(email: string): Promise<UserRecord | undefined>;
  /** All users, by id. */
  list(): Promise<UserRecord[]>;
  /** Replaces the password hash; false when the user does not exist. */
  setPassword(id: number, passHash: string): Promise<boolean>;
  /** Changes e-mail address and/or display name; a duplicate e-mail rejects with a `UniqueViolationError`. False when the user does not exist. */
  updateProfile(id: number, changes: { readonly email?: string; readonly displayName?: string }): Promise<boolean>;
  /** Deletes the user with their meta, sessions and application passwords; false when absent. */
  delete(id: number): Promise<boolean>;
  /** Role names stored in the user's `capabilities` meta ([] when none). */
  roles(id: number): Promise<string[]>;
  setRoles(id: number, roles: readonly string[]): Promise<void>;
  /** Number of users whose role list contains `role`. */
  countByRole(role: string): Promise<number>;
  /**
   * Inside a transaction, before a check that must hold until commit (e.g. "another
   * administrator remains"): takes the credentials version's row lock, so on PostgreSQL such
   * transactions run one after the other and each sees what the previous committed (SQLite's
   * BEGIN IMMEDIATE serializes every writer already). Bumps the credentials version.
   */
  lockCredentials(): Promise<void>;
}

/** Per-user key → JSON value storage (roles, connection tokens, …). */
export interface UserMetaRepo {
  get(userId: number, key: string): Promise<JsonValue | undefined>;
  set(userId: number, key: string, value: JsonValue): Promise<void>;
  delete(userId: number, key: string): Promise<void>;
  /**
   * Deletes the entry only while it still holds `expected` (as read before), in one statement:
   * true for the one caller that deleted it, false for any other (a single-use token's consumption).
   */
  deleteIf(userId: number, key: string, expected: JsonValue): Promise<boolean>;
  all(userId: number): Promise<Map<string, JsonValue>>;
  /** The given keys of every user who has any of them, in one query: user id → key → value. */
  ofEveryUser(keys: readonly string[]): Promise<Map<number, Map<string, JsonValue>>>;
}

/** A login session. Only the SHA-256 hash of the session token is stored. */
export interface SessionRecord {
  /** Hex SHA-256 of the session token. */
  readonly tokenHash: string;
  readonly userId: number;
  /** Milliseconds since the epoch. */
  readonly expiresAt: number;
  readonly userAgent: string;
  readonly ip: string;
  /** Milliseconds since the epoch. */
  readonly created: number;
}

export interface SessionsRepo {
  create(session: SessionRecord): Promise<void>;
  /** The session, expired or not (callers compare `expiresAt`). */
  find(tokenHash: string): Promise<SessionRecord | undefined>;
  /** Removes one session; false when it did not exist. */
  destroy(tokenHash: string): Promise<boolean>;
  /** Removes every session of a user; returns how many. */
  destroyForUser(userId: number): Promise<number>;
  /** Removes every session of a user but the one whose token hash is `keepTokenHash`; returns how many. */
  destroyOthersForUser(userId: number, keepTokenHash: string): Promise<number>;
  listForUser(userId: number): Promise<SessionRecord[]>;
  /** Removes sessions that expired before `now` (ms); returns how many. */
  purgeExpired(now: number): Promise<number>;
  /**
   * A number that goes up, in every process sharing the store, when a verified login may have
   * become invalid: a session destroyed, a user's password or roles changed, a user or an
   * application password deleted. Caches of verified logins compare it on every use.
   */
  credentialsVersion(): Promise<number>;
  /**
   * The credentials version when this process knows it without a query (read earlier in this
   * request batch with nothing written since, or pushed by a healthy change listener);
   * undefined otherwise. A fast path only: `credentialsVersion()` is always right.
   */
  knownCredentialsVersion?(): number | undefined;
}

/** An application password. `hash` is the hex SHA-256 of the (high-entropy) password. */
export interface AppPasswordRecord {
  readonly uuid: string;
  readonly userId: number;
  readonly name: string;
  readonly hash: string;
  /** Milliseconds since the epoch. */
  readonly created: number;
  /** Milliseconds since the epoch, null when never used. */
  readonly lastUsed: number | null;
  /** The client's own id (a UUID), '' when it gave none. */
  readonly appId: string;
  /** The address of the last use, null when never used. */
  readonly lastIp: string | null;
}

export interface AppPasswordsRepo {
  create(record: Omit<AppPasswordRecord, 'lastUsed' | 'lastIp' | 'appId'> & { readonly appId?: string }): Promise<void>;
  /** A user's application passwords, oldest first. */
  listForUser(userId: number): Promise<AppPasswordRecord[]>;
  byHash(hash: string): Promise<AppPasswordRecord | undefined>;
  /** Revokes one; false when the user has no such password. */
  delete(userId: number, uuid: string): Promise<boolean>;
  /** Revokes all of a user's; returns how many. */
  deleteAllForUser(userId: number): Promise<number>;
  /** Renames one; false when the user has no such password. */
  rename(userId: number, uuid: string, name: string): Promise<boolean>;
  /** Records a use (ms since the epoch) and, when known, the client's address. */
  touch(uuid: string, when: number, ip?: string): Promise<void>;
  /** Records the first use (as `touch`) only when it was never used; true when this call did (one caller wins a race). */
  touchFirst(uuid: string, when: number, ip?: string): Promise<boolean>;
}

/** Everything a `store.transaction` callback may use; all of it commits or rolls back together. */
export interface StoreTransaction extends StoreTx {
  readonly users: UsersRepo;
  readonly userMeta: UserMetaRepo;
  readonly sessions: SessionsRepo;
  readonly appPasswords: AppPasswordsRepo;
}

/** Named leases (which process runs background jobs). */
export interface LeasesRepo {
  /** Takes the lease, or renews it when `holder` has it; false while another holder's lease runs. */
  acquire(name: string, holder: string, ttlMs: number, now: number): Promise<boolean>;
  /** Gives the lease up when `holder` has it, so another process can take it at once. */
  release(name: string, holder: string): Promise<void>;
  /** Who holds the lease now; null when nobody does. */
  holder(name: string, now: number): Promise<string | null>;
}

/** Fast-changing status rows (key → JSON, with the time of the last write), never cached. */
export interface StatusRepo {
  get(key: string): Promise<{ value: JsonValue; updated: number } | undefined>;
  set(key: string, value: JsonValue, now: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every key that starts with `prefix` (exact, case-sensitive). */
  keys(prefix: string): Promise<string[]>;
}

/**
 * Raw query access for features that keep tables of their own (created by the migrations
 * they declare). `DB` is the feature's table types.
 */
export interface FeatureTables {
  /** Runs queries (on SQLite behind the store's gate, so they never overlap a transaction). */
  run<DB, T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in one transaction: all its writes commit or none. `audit` records an event in the
   * same transaction (docs/audit-log.md), as `tx.audit` does.
   */
  transaction<DB, T>(fn: (db: Kysely<DB>, audit: (event: AuditEventInput) => void) => Promise<T>): Promise<T>;
}

/**
 * The opened store. Outside a transaction there is no `audit` appender: an event belongs to the
 * transaction of its change (`auditLog.append` writes events that change nothing else).
 */
export interface Store extends Omit<StoreTransaction, 'audit'> {
  readonly auditLog: AuditLogRepo;
  readonly backend: 'sqlite' | 'postgres';
  readonly leases: LeasesRepo;
  readonly status: StatusRepo;
  readonly tables: FeatureTables;
  /**
   * Runs `fn` in one database transaction: it commits when `fn` resolves and rolls back when it
   * throws (the error is rethrown). Inside `fn` use only `tx`: on SQLite the store's single
   * connection belongs to the transaction until it ends. `fn` may run twice: on PostgreSQL a
   * run cut off before its COMMIT (a failover, src/store/pg-retry.ts) was rolled back and runs
   * again, so `fn` must have no effect but through `tx` (compute hashes, secrets and sources
   * before it; act on the result after it).
   */
  transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` as one transaction over the options alone: all its writes happen or none, and it
   * sees no other writer's change in between. `fn` may run more than once (on PostgreSQL, when
   * another process or store wrote an option first), so it must have no effect but its option
   * reads and writes (nor call `optionsTransaction` itself: it would wait for its own batch).
   * On PostgreSQL the calls of one store that come in while one is committing commit together in
   * one statement (src/store/README.md); on SQLite it is `transaction`.
   */
  optionsTransaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T>;
  /**
   * One query to the database, whatever the caches know (health checks): rejects when the store
   * cannot be reached. Option reads may answer from memory on PostgreSQL, so they cannot tell.
   */
  ping(): Promise<void>;
  /**
   * The options and credentials versions read now, without waiting, when the store can (SQLite,
   * with nobody holding its connection); undefined otherwise. They are then known to
   * `knownVersion`/`knownCredentialsVersion` for the rest of the request batch, as any read is.
   */
  readStateVersionsNow?(): { readonly options: number; readonly credentials: number } | undefined;
  /** Closes the database connections. */
  close(): Promise<void>;
}
