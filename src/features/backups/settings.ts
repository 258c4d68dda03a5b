/** The backups' settings: where they go, when they run, how many are kept. */
import { Type } from '@sinclair/typebox';
import { parseBackupSchedule, type BackupSchedule } from './backup-schedule.js';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseS3Url } from './s3-url.js';
import {
  ConfigError,
  custom,
  defineSettings,
  integer,
  optionalPath,
  readOptionalText,
  readString,
  type SettingInput,
  type SettingValues,
} from '../../config/setting.js';

function schedule(env: string, fallback: string, doc: string) {
  return custom<BackupSchedule>({
    env,
    doc,
    schema: Type.String({ default: fallback }),
    read(input) {
      const parsed = parseBackupSchedule(readString(input, fallback));
      if (!parsed.ok) throw new ConfigError(`${input.label} ${parsed.message}`);
      return parsed.schedule;
    },
  });
}

const keepPer = (period: string, env: string) =>
  integer({
    env,
    default: 0,
    min: 0,
    max: 10_000,
    doc: `also keep the newest backup of each of the last N ${period} that have backups (UTC; 0: no such rule)`,
  });

/** A key given in the setting: kept as given (a passphrase may have spaces), blank refused. */
function readKey(input: SettingInput): string | null {
  if (input.raw === undefined || input.raw === null) return null;
  const key = readString(input, '');
  if (key.trim() === '') throw new ConfigError(`${input.label} must not be blank`);
  return key;
}

export const backupSettings = defineSettings(
  {
    backupDir: optionalPath({
      env: 'SITEWARD_BACKUP_DIR',
      defaultDoc: '— (no backups)',
      doc: 'directory for backups of the store (created with mode 0700)',
    }),
    backupSchedule: schedule(
      'SITEWARD_BACKUP_SCHEDULE',
      '1d',
      '`90m`, `6h`, `1d` (UTC multiples), a daily time `03:30` (local) or `03:30Z`, or `off`',
    ),
    backupKeep: integer({ env: 'SITEWARD_BACKUP_KEEP', default: 14, min: 1, max: 10_000, doc: 'keep at most this many good backups' }),
    backupMaxAgeDays: integer({
      env: 'SITEWARD_BACKUP_MAX_AGE_DAYS',
      default: 14,
      min: 1,
      max: 36_500,
      doc: 'delete backups older than this unless a keep-daily/weekly/monthly rule keeps them (the newest good one always stays)',
    }),
    backupKeepDaily: keepPer('days', 'SITEWARD_BACKUP_KEEP_DAILY'),
    backupKeepWeekly: keepPer('ISO weeks', 'SITEWARD_BACKUP_KEEP_WEEKLY'),
    backupKeepMonthly: keepPer('months', 'SITEWARD_BACKUP_KEEP_MONTHLY'),
    backupS3Url: custom<string | null>({
      env: 'SITEWARD_BACKUP_S3_URL',
      defaultDoc: '— (no off-site copies)',
      doc: 'off-site copies: `s3://<bucket>/<prefix>?endpoint=<url>&region=<r>&forcePathStyle=true` (credentials from `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY` or a profile)',
      schema: Type.Union([Type.String(), Type.Null()], { default: null }),
      read(input) {
        const text = readOptionalText(input);
        if (text === null) return null;
        const parsed = parseS3Url(text);
        if (!parsed.ok) throw new ConfigError(`${input.label} ${parsed.message} (got ${JSON.stringify(text)})`);
        return text;
      },
    }),
    backupEncryptionKey: custom<string | null>({
      env: 'SITEWARD_BACKUP_ENCRYPTION_KEY',
      defaultDoc: '— (not encrypted)',
      doc: 'encrypt backups (age) with this passphrase or age identity (`AGE-SECRET-KEY-1…`); a lost key means lost backups',
      schema: Type.Union([Type.String(), Type.Null()], { default: null }),
      read: readKey,
    }),
    backupEncryptionKeyFile: optionalPath({
      env: 'SITEWARD_BACKUP_ENCRYPTION_KEY_FILE',
      defaultDoc: '—',
      doc: 'the same key, read from this file (mode 0600)',
    }),
    backupVerifySchedule: schedule(
      'SITEWARD_BACKUP_VERIFY_SCHEDULE',
      '7d',
      'when the newest backup of each target is restored into a temporary store and checked (same forms as the schedule)',
    ),
  },
  (values, input) => {
    if (values.backupEncryptionKey !== null && values.backupEncryptionKeyFile !== null) {
      throw new ConfigError(`set ${input.labelOf('backupEncryptionKey')} or ${input.labelOf('backupEncryptionKeyFile')}, not both`);
    }
    const file = values.backupEncryptionKeyFile;
    if (file === null) return;
    if (!existsSync(path.resolve(input.cwd, file)))
      throw new ConfigError(`${input.labelOf('backupEncryptionKeyFile')} must name a readable file (${file} does not exist)`);
    if (readFileSync(file, 'utf8').trim() === '') throw new ConfigError(`${input.labelOf('backupEncryptionKeyFile')}: ${file} is empty`);
  },
);

declare module '../../config/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Config extends SettingValues<typeof backupSettings> {}
}
