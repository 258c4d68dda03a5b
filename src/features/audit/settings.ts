/** The audit log's settings: retention, forwarding sinks and alerts (docs/audit-log.md). */
import {
  choice,
  defineSettings,
  integer,
  list,
  optionalPath,
  optionalText,
  optionalUrl,
  type SettingValues,
} from '../../config/setting.js';

export const auditSettings = defineSettings({
  auditRetentionDays: integer({
    env: 'SITEWARD_AUDIT_RETENTION_DAYS',
    default: 365,
    min: 1,
    max: 36_500,
    doc: 'audit events older than this many days are purged (daily, in batches, cutting the chain at a signed checkpoint)',
  }),
  auditForwardHoldDays: integer({
    env: 'SITEWARD_AUDIT_FORWARD_HOLD_DAYS',
    default: 30,
    min: 0,
    max: 36_500,
    doc: 'the retention never purges events a configured forwarding sink has not taken yet, unless that sink has been failing for longer than this many days (then it stops holding the log back, shown in `/healthz?detail=1`); `0`: sinks never hold the retention',
  }),
  auditSyslogUrl: optionalUrl({
    env: 'SITEWARD_AUDIT_SYSLOG_URL',
    protocols: ['udp:', 'tcp:', 'tls:'],
    defaultDoc: '—',
    doc: 'audit forwarding: an RFC 5424 syslog receiver, `udp://host:514`, `tcp://host:601` (octet counting, RFC 6587) or `tls://host:6514`; every event and signed checkpoint is sent, at least once',
  }),
  auditSyslogCa: optionalPath({
    env: 'SITEWARD_AUDIT_SYSLOG_CA',
    defaultDoc: "Node's trusted CAs",
    doc: "audit forwarding: PEM file of the CA(s) that sign the `tls://` syslog receiver's certificate",
  }),
  auditOtlpUrl: optionalUrl({
    env: 'SITEWARD_AUDIT_OTLP_URL',
    protocols: ['http:', 'https:'],
    defaultDoc: '—',
    doc: 'audit forwarding: an OTLP/HTTP logs endpoint (JSON encoding), e.g. `http://collector:4318/v1/logs` (a URL without a path gets `/v1/logs`)',
  }),
  auditOtlpHeaders: optionalText({
    env: 'SITEWARD_AUDIT_OTLP_HEADERS',
    defaultDoc: '—',
    doc: 'audit forwarding: headers sent to the OTLP endpoint, `name=value,name=value` (e.g. `Authorization=Bearer …`); never shown by the API',
  }),
  auditWebhookUrl: optionalUrl({
    env: 'SITEWARD_AUDIT_WEBHOOK_URL',
    protocols: ['http:', 'https:'],
    defaultDoc: '—',
    doc: 'audit forwarding: an http(s) URL that gets every event and signed checkpoint in POSTed batches (body in docs/audit-log.md)',
  }),
  auditWebhookFormat: choice({
    env: 'SITEWARD_AUDIT_WEBHOOK_FORMAT',
    values: ['json', 'slack', 'discord'] as const,
    default: 'json',
    doc: 'audit forwarding: the webhook body: `json` (Siteward\'s, documented), `slack` (`{"text"}`) or `discord` (`{"content"}`, split at 2000 characters)',
  }),
  auditAlertActions: list({
    env: 'SITEWARD_AUDIT_ALERT_ACTIONS',
    defaultDoc: '`user.role_changed:administrator,two_factor.disabled,backup.restored,audit.verify_failed`',
    doc: 'audit alerts: the actions that alert (an action, a prefix ending in `.` or `*`, or `action:value` to match only a change to that value, e.g. `user.role_changed:administrator`); `none` turns alerts off',
  }),
  auditAlertEmails: list({
    env: 'SITEWARD_AUDIT_ALERT_EMAILS',
    defaultDoc: 'the administrators',
    doc: 'audit alerts: e-mail recipients of the alert digest (needs SITEWARD_SMTP_URL)',
  }),
  auditAlertWebhookUrl: optionalUrl({
    env: 'SITEWARD_AUDIT_ALERT_WEBHOOK_URL',
    protocols: ['http:', 'https:'],
    defaultDoc: '—',
    doc: 'audit alerts: an http(s) URL that gets the alert digest (at most one a minute)',
  }),
  auditAlertWebhookFormat: choice({
    env: 'SITEWARD_AUDIT_ALERT_WEBHOOK_FORMAT',
    values: ['json', 'slack', 'discord'] as const,
    default: 'json',
    doc: 'audit alerts: the alert webhook body: `json`, `slack` or `discord`',
  }),
});

declare module '../../config/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Config extends SettingValues<typeof auditSettings> {}
}
