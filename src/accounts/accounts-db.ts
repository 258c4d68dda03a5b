import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

/** The one SQLite connection of the account service (oidc models, accounts, keys). */
export type AccountsDb = BetterSqlite3.Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS oidc_models (
  model TEXT NOT NULL,
  id TEXT NOT NULL,
  payload TEXT NOT NULL,
  grant_id TEXT,
  user_code TEXT,
  uid TEXT,
  expires_at INTEGER,
  PRIMARY KEY (model, id)
);
CREATE INDEX IF NOT EXISTS oidc_models_grant ON oidc_models (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS oidc_models_uid ON oidc_models (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX IF NOT EXISTS oidc_models_user_code ON oidc_models (model, user_code) WHERE user_code IS NOT NULL;
CREATE INDEX IF NOT EXISTS oidc_models_expiry ON oidc_models (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS accounts (
  id INTEGER PRIMARY KEY,
  login TEXT NOT NULL UNIQUE COLLATE NOCASE,
  email TEXT NOT NULL,
  name TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  email_verified INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

/**
 * Opens (creating when missing) the account service's SQLite file. The file holds private signing
 * keys and password hashes, so it is created with mode 0600 before SQLite touches it; SQLite gives
 * its -wal and -shm companions the same mode.
 */
export function openAccountsDb(dataFile: string): AccountsDb {
  if (dataFile !== ':memory:') {
    mkdirSync(dirname(dataFile), { recursive: true });
    closeSync(openSync(dataFile, 'a', 0o600));
    chmodSync(dataFile, 0o600);
  }
  const db = new BetterSqlite3(dataFile);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 2000');
  db.exec(SCHEMA);
  // Files made before accounts had a verified flag gain the column (every account unverified).
  const columns = db.prepare('PRAGMA table_info(accounts)').all() as { name: string }[];
  if (!columns.some((c) => c.name === 'email_verified'))
    db.exec('ALTER TABLE accounts ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0');
  return db;
}

/** A value of the settings table, or undefined. */
export function readSetting(db: AccountsDb, name: string): string | undefined {
  const row: unknown = db.prepare('SELECT value FROM settings WHERE name = ?').get(name);
  if (row === undefined) return undefined;
  const value = (row as { value: unknown }).value;
  return typeof value === 'string' ? value : undefined;
}

export function writeSetting(db: AccountsDb, name: string, value: string): void {
  db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value').run(name, value);
}
