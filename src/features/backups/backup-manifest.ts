import { randomBytes } from 'node:crypto';
import { isPlainObject } from '../../core/objects.js';
import type { AuditCheckpoint } from '../../wire/audit.js';

export type BackupBackend = 'sqlite' | 'postgres';

/** One table of the backup with its row count at snapshot time. */
export interface SqliteTableEntry {
  readonly name: string;
  readonly rows: number;
}

/** A PostgreSQL table: its COPY text section is `bytes` long and lists `columns` in that order. */
export interface PostgresTableEntry {
  readonly name: string;
  readonly rows: number;
  readonly columns: readonly string[];
  readonly bytes: number;
}

/**
 * A sequence value to put back on restore. COPY carries no sequence state, and resetting to
 * max(id)+1 would reuse ids of deleted rows (the store promises it never does).
 */
export interface SequenceEntry {
  readonly table: string;
  readonly column: string;
  /** Decimal text: bigint sequences can exceed 2^53. */
  readonly lastValue: string;
  readonly isCalled: boolean;
}

interface ManifestCommon {
  readonly format: 'siteward-backup';
  readonly formatVersion: 1;
  readonly id: string;
  /** ISO 8601 time of the snapshot. */
  readonly time: string;
  /** The applied migration names in order (the store's schema version). */
  readonly schemaVersion: readonly string[];
  /** Uncompressed content: length and hex SHA-256. */
  readonly contentBytes: number;
  readonly contentSha256: string;
  /** The gzip payload as stored in the file: length and hex SHA-256. */
  readonly payloadBytes: number;
  readonly payloadSha256: string;
  /** The store the backup was taken from (see store-id.ts); absent in backups made before store ids. */
  readonly storeId?: string;
  /** `age-v1` when the payload is encrypted (backup-crypto.ts); absent: plain gzip. */
  readonly encryption?: 'age-v1';
  /**
   * The audit log's head signed just before the snapshot (docs/audit-log.md "Checkpoints in
   * backups"): `siteward audit verify --checkpoint <file>` checks a restored store against it.
   * Absent in backups made before it, or when the store has no audit log.
   */
  readonly auditCheckpoint?: AuditCheckpoint;
}

/** SQLite: the content is the snapshot database file itself. */
export interface SqliteManifest extends ManifestCommon {
  readonly backend: 'sqlite';
  readonly tables: readonly SqliteTableEntry[];
}

/** PostgreSQL: the content is every table's `COPY … TO STDOUT` text output, one after the other. */
export interface PostgresManifest extends ManifestCommon {
  readonly backend: 'postgres';
  readonly tables: readonly PostgresTableEntry[];
  readonly sequences: readonly SequenceEntry[];
}

export type BackupManifest = SqliteManifest | PostgresManifest;

/** The migrations bookkeeping tables: without them a restored store would not know its schema version. */
export const MIGRATION_TABLES = ['kysely_migration', 'kysely_migration_lock'] as const;

const ID = /^(\d{8}T\d{9}Z)-([0-9a-f]{8})$/;

/**
 * A backup id: the UTC time down to the millisecond, then random hex. Sorting ids as strings
 * sorts backups by time.
 */
export function newBackupId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  return `${stamp}-${randomBytes(4).toString('hex')}`;
}

/** The time encoded in an id, or null when the text is not a backup id. */
export function backupIdTime(id: string): Date | null {
  const match = ID.exec(id);
  if (!match) return null;
  const s = match[1];
  const iso = `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}.${s.slice(15, 18)}Z`;
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? null : time;
}

export function isBackupId(text: string): boolean {
  return backupIdTime(text) !== null;
}

type Check = (value: unknown) => boolean;
const isCount: Check = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isText: Check = (v) => typeof v === 'string';
const isHash: Check = (v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
const isTextList: Check = (v) => Array.isArray(v) && v.every(isText);

function fields(value: unknown, checks: Record<string, Check>): value is Record<string, unknown> {
  return isPlainObject(value) && Object.entries(checks).every(([key, check]) => check(value[key]));
}

const tableChecks: Record<string, Record<string, Check>> = {
  sqlite: { name: isText, rows: isCount },
  postgres: { name: isText, rows: isCount, columns: isTextList, bytes: isCount },
};
const sequenceChecks: Record<string, Check> = {
  table: isText,
  column: isText,
  lastValue: (v) => typeof v === 'string' && /^-?\d+$/.test(v),
  isCalled: (v) => typeof v === 'boolean',
};

/** Validates a parsed manifest; null when anything is missing or of the wrong type. */
export function parseManifest(value: unknown): BackupManifest | null {
  const common = {
    format: (v: unknown) => v === 'siteward-backup',
    formatVersion: (v: unknown) => v === 1,
    id: (v: unknown) => typeof v === 'string' && isBackupId(v),
    time: (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
    backend: (v: unknown) => v === 'sqlite' || v === 'postgres',
    schemaVersion: isTextList,
    contentBytes: isCount,
    contentSha256: isHash,
    payloadBytes: isCount,
    payloadSha256: isHash,
    tables: Array.isArray,
    storeId: (v: unknown) => v === undefined || (typeof v === 'string' && v.length > 0 && v.length <= 100),
    encryption: (v: unknown) => v === undefined || v === 'age-v1',
    auditCheckpoint: (v: unknown) =>
      v === undefined || fields(v, { last_id: isCount, head_hash: isHash, count: isCount, time: isCount, signature: isText }),
  };
  if (!fields(value, common)) return null;
  const backend = value.backend as BackupBackend;
  const tables = value.tables as unknown[];
  if (!tables.every((t) => fields(t, tableChecks[backend]))) return null;
  if (backend === 'postgres') {
    const sequences = value.sequences;
    if (!Array.isArray(sequences) || !sequences.every((s) => fields(s, sequenceChecks))) return null;
  }
  // Every field was checked above against the shape of its backend's manifest.
  return value as unknown as BackupManifest;
}
