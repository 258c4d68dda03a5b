/** The backups' settings: where they go, when they run, how many are kept. */
import { Type } from '@sinclair/typebox';
import { parseBackupSchedule, type BackupSchedule } from '../../core/backup-schedule.js';
import { ConfigError, custom, defineSettings, integer, optionalPath, readString, type SettingValues } from '../../config/setting.js';

export const backupSettings = defineSettings({
  backupDir: optionalPath({ env: 'SITEWARD_BACKUP_DIR', defaultDoc: '— (no backups)', doc: 'directory for backups of the store (created with mode 0700)' }),
  backupSchedule: custom<BackupSchedule>({
    env: 'SITEWARD_BACKUP_SCHEDULE',
    doc: '`90m`, `6h`, `1d` (UTC multiples), a daily time `03:30` (local) or `03:30Z`, or `off`',
    schema: Type.String({ default: '1d' }),
    read(input) {
      const parsed = parseBackupSchedule(readString(input, '1d'));
      if (!parsed.ok) throw new ConfigError(`${input.label} ${parsed.message}`);
      return parsed.schedule;
    },
  }),
  backupKeep: integer({ env: 'SITEWARD_BACKUP_KEEP', default: 14, min: 1, max: 10_000, doc: 'keep at most this many good backups' }),
  backupMaxAgeDays: integer({
    env: 'SITEWARD_BACKUP_MAX_AGE_DAYS',
    default: 14,
    min: 1,
    max: 36_500,
    doc: 'delete backups older than this (the newest good one always stays)',
  }),
});

declare module '../../config/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Config extends SettingValues<typeof backupSettings> {}
}
