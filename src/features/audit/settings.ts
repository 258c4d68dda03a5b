/** The audit log's settings. */
import { defineSettings, integer, type SettingValues } from '../../config/setting.js';

export const auditSettings = defineSettings({
  auditRetentionDays: integer({
    env: 'SITEWARD_AUDIT_RETENTION_DAYS',
    default: 365,
    min: 1,
    max: 36_500,
    doc: 'audit events older than this many days are purged (daily, in batches, cutting the chain at a signed checkpoint)',
  }),
});

declare module '../../config/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Config extends SettingValues<typeof auditSettings> {}
}
