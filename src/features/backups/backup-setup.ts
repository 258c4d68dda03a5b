/**
 * The backups as configured: the targets (local directory, bucket, or both), the encryption
 * key, retention, and the store they belong to. Built once from the configuration.
 */
import { readFileSync } from 'node:fs';
import type { Config } from '../../config/config.js';
import { parseS3Url } from './s3-url.js';
import type { Store } from '../../store/types.js';
import { parseBackupKey, type BackupKey } from './backup-crypto.js';
import type { RetentionPolicy } from './backup-retention.js';
import { localTarget, type AnyTarget } from './backup-target.js';
import type { FeatureMigrations } from './postgres-restore.js';
import { s3Target, type S3TargetOptions } from './s3-target.js';
import { readStoreId } from './store-id.js';
import { configuredLocation, type StoreLocation } from './store-location.js';
import type { RetryPolicy } from './upload-retry.js';

export interface BackupSetup {
  /** Empty when backups are not configured. */
  readonly targets: readonly AnyTarget[];
  readonly key: BackupKey | null;
  readonly location: StoreLocation;
  readonly retention: RetentionPolicy;
  readonly migrations: FeatureMigrations;
  readonly retry?: RetryPolicy;
  /** The id of the store (read each time: a restore may have replaced it). */
  storeId(): Promise<string>;
}

/** What tests change: no real waits between upload attempts, fewer SDK attempts. */
export interface BackupTuning {
  readonly retry?: RetryPolicy;
  readonly s3?: S3TargetOptions;
}

export function backupTargets(config: Pick<Config, 'backupDir' | 'backupS3Url'>, s3Options: S3TargetOptions = {}): AnyTarget[] {
  const targets: AnyTarget[] = [];
  if (config.backupDir !== null) targets.push(localTarget(config.backupDir));
  if (config.backupS3Url !== null) {
    const parsed = parseS3Url(config.backupS3Url);
    // The configuration validated it already.
    if (parsed.ok) targets.push(s3Target(parsed.location, s3Options));
  }
  return targets;
}

export function configuredKey(config: Pick<Config, 'backupEncryptionKey' | 'backupEncryptionKeyFile'>): BackupKey | null {
  if (config.backupEncryptionKey !== null) return parseBackupKey(config.backupEncryptionKey);
  const file = config.backupEncryptionKeyFile;
  if (file !== null) return parseBackupKey(readFileSync(file, 'utf8'), `SITEWARD_BACKUP_ENCRYPTION_KEY_FILE (${file})`);
  return null;
}

export function backupSetup(
  config: Config,
  store: Pick<Store, 'backend' | 'tables'>,
  migrations: FeatureMigrations,
  tuning: BackupTuning = {},
): BackupSetup {
  return {
    targets: backupTargets(config, tuning.s3),
    key: configuredKey(config),
    location: configuredLocation(config),
    retention: {
      keepCount: config.backupKeep,
      maxAgeDays: config.backupMaxAgeDays,
      keepDaily: config.backupKeepDaily,
      keepWeekly: config.backupKeepWeekly,
      keepMonthly: config.backupKeepMonthly,
    },
    migrations,
    ...(tuning.retry && { retry: tuning.retry }),
    storeId: () => readStoreId(store),
  };
}
