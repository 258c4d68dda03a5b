import { Migrator, type Kysely } from 'kysely';
import { hostname } from 'node:os';
import { KyselyAppPasswords } from './app-passwords-repo.js';
import { appendDrafts, AuditCollector, KyselyAuditLog } from './audit-repo.js';
import { draftOf, type AuditDraft } from './audit-chain.js';
import { bumpCredentialsVersion, type CredentialsBump } from './credentials-version.js';
import { migrationProvider, type Dialect, type MigrationFactory } from './migrations.js';
import { KyselyLeases, KyselyStatus } from './runtime-state-repos.js';
import type { Database } from './schema.js';
import { KyselySessions } from './sessions-repo.js';
import type { AuditEventInput } from '../wire/audit.js';
import type { FeatureTables, OptionsRepo, Store, StoreTransaction, StoreTx } from './types.js';
import { KyselyUserMeta, KyselyUsers, type DbRun } from './users-repo.js';

/** What both backends share: the Kysely repositories, feature tables and closing. */
export abstract class StoreImpl implements Store {
  abstract readonly backend: 'sqlite' | 'postgres';
  abstract readonly options: OptionsRepo;
  readonly users: KyselyUsers;
  readonly userMeta: KyselyUserMeta;
  readonly sessions: KyselySessions;
  readonly appPasswords: KyselyAppPasswords;
  readonly leases: KyselyLeases;
  readonly status: KyselyStatus;
  readonly tables: FeatureTables;
  readonly auditLog: KyselyAuditLog;

  protected constructor(
    protected readonly db: Kysely<Database>,
    private readonly run: DbRun,
    protected readonly audit: AuditSettings,
    bump: CredentialsBump = bumpCredentialsVersion,
  ) {
    this.userMeta = new KyselyUserMeta(run, bump);
    this.users = new KyselyUsers(run, this.userMeta, bump);
    this.sessions = new KyselySessions(run, bump);
    this.appPasswords = new KyselyAppPasswords(run, bump);
    this.leases = new KyselyLeases(run);
    this.status = new KyselyStatus(run);
    // Features' tables are not in `Database`: the cast is the one place their types meet the store's handle.
    this.tables = {
      run: <DB, T>(fn: (db: Kysely<DB>) => Promise<T>) => run((db) => fn(db as unknown as Kysely<DB>)),
      transaction: <DB, T>(fn: (db: Kysely<DB>, audit: (event: AuditEventInput) => void) => Promise<T>) =>
        this.rawTransaction(async (db) => {
          const collector = this.auditCollector();
          const result = await fn(db as unknown as Kysely<DB>, collector.add);
          // Before COMMIT, in the same transaction: no change without its event.
          await this.appendAudit(db, collector.drafts);
          return result;
        }),
    };
    this.auditLog = new KyselyAuditLog(
      run,
      (fn) => this.rawTransaction(fn),
      (db, drafts) => this.appendAudit(db, drafts),
      audit.clock,
      audit.hostId,
      audit.dialect,
    );
  }

  /** Writes a transaction's audit events before its COMMIT (SQLite overrides it with its prepared statements). */
  protected appendAudit(db: Kysely<Database>, drafts: readonly AuditDraft[]): Promise<void> {
    return appendDrafts(db, this.audit.dialect, drafts);
  }

  /** A new collector for one transaction's audit events. */
  protected auditCollector(): AuditCollector {
    return new AuditCollector(this.audit.clock, this.audit.hostId);
  }

  abstract transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T>;

  optionsTransaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T> {
    return this.transaction(fn);
  }
  /** One transaction on the raw Kysely handle (the repositories' transaction builds on it). */
  protected abstract rawTransaction<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T>;

  async ping(): Promise<void> {
    await this.run((db) => db.selectFrom('state_version').select('v').where('id', '=', 1).executeTakeFirst());
  }

  private closing: Promise<void> | null = null;

  close(): Promise<void> {
    this.closing ??= this.db.destroy().finally(() => this.closed());
    return this.closing;
  }

  /** Hook for backend-specific cleanup after the connections are closed. */
  protected closed(): void {}

  protected repos(
    db: Kysely<Database>,
    options: OptionsRepo,
    audit: (event: AuditEventInput) => void,
    bump: CredentialsBump = bumpCredentialsVersion,
  ): StoreTransaction {
    const run: DbRun = (fn) => fn(db);
    const userMeta = new KyselyUserMeta(run, bump);
    return {
      options,
      audit,
      userMeta,
      users: new KyselyUsers(run, userMeta, bump),
      sessions: new KyselySessions(run, bump),
      appPasswords: new KyselyAppPasswords(run, bump),
    };
  }
}

/** What audit appends need of the store: its dialect, the time of an event and the host writing it. */
export interface AuditSettings {
  readonly dialect: Dialect;
  readonly clock: () => number;
  readonly hostId: string;
}

/**
 * The audit event of migrations applied at open (docs/audit-log.md): written in the migrating
 * transaction on SQLite, right after on PostgreSQL (its migrations commit one by one).
 */
export function migrationDrafts(applied: readonly string[], settings: AuditSettings): AuditDraft[] {
  // Before the audit log's own migration there is no table to write into.
  if (applied.length === 0) return [];
  return [
    draftOf(
      {
        action: 'server.migrated',
        result: 'ok',
        actor: { kind: 'job', user_id: 0, login: '', credential: { type: 'none' }, job: 'migrations' },
        client_ip: '',
        user_agent: '',
        request_id: '',
        object: { type: 'store', id: settings.dialect, name: settings.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite' },
        changes: { migrations: { before: null, after: [...applied] } },
      },
      settings.clock(),
      settings.hostId,
    ),
  ];
}

/** `hostId` defaults to the machine's host name. */
export function auditSettings(dialect: Dialect, options: { readonly hostId?: string; readonly clock?: () => number }): AuditSettings {
  return { dialect, clock: options.clock ?? Date.now, hostId: options.hostId ?? hostname() };
}

export async function migrate(
  db: Kysely<Database>,
  dialect: Dialect,
  disableTransactions: boolean,
  extra?: Readonly<Record<string, MigrationFactory>>,
  migrationTableSchema?: string,
): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider(dialect, extra),
    disableTransactions,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error === undefined) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  // Kysely's words for a store a newer release migrated ("corrupted migrations: previously executed
  // migration X is missing") say neither what happened nor what to do.
  const newer = error instanceof Error ? /previously executed migration (\S+) is missing/.exec(error.message) : null;
  if (newer !== null) throw new StoreNewerThanCodeError(newer[1]!);
  throw error instanceof Error ? error : new Error(`migration failed: ${String(error)}`);
}

/** The store was upgraded by a newer Siteward: it has a migration this release does not know. */
export class StoreNewerThanCodeError extends Error {
  constructor(readonly migration: string) {
    super(
      `This store was upgraded by a newer Siteward release (it has migration ${migration}, which this release does not know), so this release cannot open it. Either run the newer release again, or restore a backup made before the upgrade (with the newer release: siteward backup restore <id>; or put back a copy of the data directory or database from before the upgrade).`,
    );
    this.name = 'StoreNewerThanCodeError';
  }
}
