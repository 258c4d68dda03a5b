/**
 * Shapes of Siteward's own `siteward/v1` answers the admin page reads. Types only, shared by the
 * server that builds them and the page that reads them (test/layers.test.ts checks there is no code).
 */

/** GET siteward/v1/protect/history */
export interface ProtectHistory {
  days: number;
  timezone: string;
  total: number;
  history: { date: string; count: number }[];
}

/** One down interval: ISO times (`end` null while still down), duration in seconds. */
export interface DownInterval {
  start: string;
  end: string | null;
  duration: number;
  reason: string;
}

/** One check's state, as At a Glance lists them. */
export interface MonitorCheckState {
  readonly id: number;
  /** The site URL's own check (the default one). */
  readonly site: boolean;
  readonly url: string;
  readonly state: 'up' | 'down' | 'unknown';
  /** ISO time the open downtime started; null unless down outside maintenance. */
  readonly downSince: string | null;
  /** A maintenance window is in force: a `down` state is shown as "Down (maintenance)", and counts for neither alerts nor uptime. */
  readonly maintenance: boolean;
}

/** GET siteward/v1/monitor/history: the site's down intervals, and every check's state (the site first). */
export interface MonitorHistory {
  days: number;
  checks: MonitorCheckState[];
  intervals: DownInterval[];
  /** Periods of the site's check when no host of Siteward checked: neither up nor down. */
  noData: NoDataInterval[];
  /** When the site's check has data from (its first stored response time), or null: the time before is "no data" too. */
  monitoredSince: string | null;
}

/** A period when nothing checked (Siteward stopped, or the module off): ISO times, duration in seconds. */
export interface NoDataInterval {
  start: string;
  end: string;
  duration: number;
}

/** One check of the Monitor screen (GET siteward/v1/monitor): its state, uptime, certificate and the hosts' votes. */
export interface MonitorCheck extends MonitorCheckState {
  readonly expectedStatus: string;
  readonly keyword: string | null;
  readonly keywordAbsent: boolean;
  readonly slowMs: number | null;
  readonly lastError: string | null;
  readonly lastResponseMs: number | null;
  readonly uptime: Readonly<Record<'24h' | '7d' | '30d' | '365d', number | null>>;
  readonly certificate: {
    readonly validTo: string;
    readonly daysLeft: number;
    readonly subject: string;
    readonly issuer: string;
    readonly error: string | null;
  } | null;
  readonly hosts: readonly { readonly host: string; readonly down: boolean; readonly at: string; readonly reason: string | null }[];
}

/** A maintenance window as it travels (ISO times; days 0 = Sunday). */
export type MaintenanceWindowJson =
  | { readonly id: number; readonly kind: 'once'; readonly starts: string; readonly ends: string; readonly note: string }
  | {
      readonly id: number;
      readonly kind: 'weekly';
      readonly days: readonly number[];
      readonly time: string;
      readonly durationMinutes: number;
      readonly note: string;
    }
  | { readonly id: number; readonly kind: 'cron'; readonly cron: string; readonly durationMinutes: number; readonly note: string };

/** Who is told of a downtime, and how often while it lasts. */
export interface MonitorNotifications {
  /** Administrators (user ids) who get e-mails; null: every administrator. */
  readonly administrators: readonly number[] | null;
  readonly emails: readonly string[];
  /** Minutes between "still down" reminders; 0: none. */
  readonly repeatMinutes: number;
  /** Whether real alerts go out by e-mail (the module's `monitor_receive_notifications`, off by default). */
  readonly email: boolean;
  /** Whether a webhook is configured (SITEWARD_MONITOR_WEBHOOK): it is called on every change, whatever `email` says. */
  readonly webhook: boolean;
}

/** POST siteward/v1/monitor/notifications/test: how each channel went, and whether real alerts go out on it. */
export interface MonitorTestAnswer {
  readonly results: readonly { readonly channel: 'email' | 'webhook'; readonly ok: boolean; readonly error?: string }[];
  readonly alerts: { readonly email: boolean; readonly webhook: boolean };
  /** Said when a channel that was tested sends no real alert (or none does), else absent. */
  readonly note?: string;
}

/** GET siteward/v1/monitor: everything the Monitor screen shows at the top. */
export interface MonitorOverview {
  readonly active: boolean;
  readonly now: string;
  readonly timeZone: string;
  readonly checks: readonly MonitorCheck[];
  readonly maintenance: {
    readonly current: (MaintenanceWindowJson & { readonly until: string }) | null;
    readonly windows: readonly MaintenanceWindowJson[];
  };
  readonly notifications: MonitorNotifications;
  readonly administrators: readonly { readonly id: number; readonly name: string }[];
}

/** GET siteward/v1/monitor/checks/:id/history: response times in buckets, and downtimes. */
export interface MonitorCheckHistory {
  readonly check: number;
  readonly days: number;
  readonly bucketSeconds: number;
  readonly points: readonly {
    readonly at: string;
    readonly ms: number | null;
    readonly checks: number;
    readonly down: number;
    readonly slow: number;
  }[];
  readonly downtimes: readonly DownInterval[];
  readonly noData: readonly NoDataInterval[];
  readonly monitoredSince: string | null;
}

export type BackupTargetKind = 'local' | 's3';

/** One backup of GET siteward/v1/backups. */
export interface BackupEntry {
  readonly id: string;
  /** Unix seconds. */
  readonly time: number;
  readonly size: number;
  readonly status: 'ok' | 'corrupt';
  readonly problem: string | null;
  /** Whether the backup itself is encrypted (from its manifest); null when not read (older backups in a bucket). */
  readonly encrypted: boolean | null;
  /** Its latest verification, by `siteward backup verify` or the schedule; null if never verified. */
  readonly verification: { readonly time: number; readonly ok: boolean; readonly message: string } | null;
}

/** One target of GET siteward/v1/backups. */
export interface BackupTargetList {
  readonly kind: BackupTargetKind;
  readonly where: string;
  /** Null when the listing worked; else why it did not. */
  readonly error: string | null;
  readonly backups: readonly BackupEntry[];
}

/** GET siteward/v1/backups */
export interface BackupsList {
  readonly store_id: string;
  readonly backend: 'sqlite' | 'postgres';
  /** New backups are encrypted (a key is configured); each backup says whether it is. */
  readonly encrypted: boolean;
  /** A backup is running now. */
  readonly running: boolean;
  readonly targets: readonly BackupTargetList[];
}

/** GET siteward/v1/sso: how sign-in through the account service stands (the Single Sign On module's panel). */
export interface SsoOverview {
  /** An account service is configured (SITEWARD_ACCOUNTS_ISSUER). */
  readonly configured: boolean;
  /** The `sso` module is on and available. */
  readonly active: boolean;
  /** "Log in with <provider>". */
  readonly provider: string | null;
  readonly issuer: string | null;
  /** The sign-in callback to register at the provider. */
  readonly redirectUri: string | null;
  /** The registration allows sign-in. */
  readonly ready: boolean;
  /** Why not, when not ready. */
  readonly problem: string | null;
  readonly linkedUsers: number;
  readonly matchByEmail: boolean;
}

/** One item of GET siteward/v1/protect/blocks (ISO times). */
export interface ProtectBlock {
  /** An IPv4 address or an IPv6 /64 (`2001:db8:1:2::/64`). */
  readonly address: string;
  /** The client address whose failure started the block. */
  readonly last_address: string;
  readonly active: boolean;
  /** 1 ordinary, 2 escalated. */
  readonly level: number;
  readonly failures: number;
  readonly blocked_attempts: number;
  readonly usernames: readonly string[];
  readonly first_attempt: string;
  readonly last_attempt: string;
  readonly blocked_at: string;
  readonly blocked_until: string;
  readonly lifted_at: string | null;
  /** `rest:<login>`, `cli` or `link:<login>`. */
  readonly lifted_by: string | null;
}

/** One item of GET siteward/v1/protect/attempts. */
export interface ProtectAttempt {
  readonly at: string;
  readonly address: string;
  /** The counter key (null for attempts logged before block details were kept). */
  readonly key: string | null;
  readonly login: string;
  readonly outcome: 'failed' | 'refused';
  /**
   * What a failed attempt got wrong: the password, a two-factor code, a recovery code (wrong or
   * already used); `challenge` for an attempt refused because the login form's challenge was
   * missing, wrong or replayed (its password was not checked); null when refused by a block.
   */
  readonly failure: 'password' | 'code' | 'recovery_code' | 'challenge' | null;
}

/** GET siteward/v1/protect/notifications (POST answers the first two members). */
export interface ProtectNotificationsAnswer {
  readonly administrators: readonly number[];
  readonly webhook: boolean;
  readonly choices: readonly { readonly id: number; readonly name: string }[];
  readonly mail_configured: boolean;
  readonly webhook_configured: boolean;
}

/** GET siteward/v1/two-factor (and the answer of DELETE): the current user's second factor. */
export interface TwoFactorStatus {
  enabled: boolean;
  /** An enrolment was started and awaits its first code. */
  pending: boolean;
  recovery_codes_left: number;
  /** The user's role must use two-factor. */
  required: boolean;
  /** What two-factor does not cover (application passwords). */
  application_passwords: string;
}

/** POST siteward/v1/two-factor/enrol: a new secret, its otpauth URI and QR code (an SVG data URL). */
export interface TwoFactorEnrolment {
  secret: string;
  uri: string;
  qr: string;
  application_passwords: string;
}

/** POST siteward/v1/two-factor/confirm and …/recovery-codes: the recovery codes, shown once. */
export interface TwoFactorCodes {
  enabled?: true;
  recovery_codes: string[];
}

/** One row of GET siteward/v1/agent-clients: an OAuth client that called the MCP server or wp-abilities as a user. */
export interface AgentClientRow {
  readonly client_id: string;
  readonly client_name: string | null;
  readonly user_id: number;
  readonly user_login: string;
  /** ISO 8601 UTC. */
  readonly first_used: string;
  readonly last_used: string;
  readonly revoked: boolean;
}

/** One sink of GET siteward/v1/audit/forwarding (no secrets). */
export interface AuditForwardStatus {
  readonly sink: string;
  /** `syslog-udp|tcp|tls`, `otlp-http`, `webhook-json|slack|discord`. */
  readonly kind: string;
  /** Where it sends, without credentials, query or headers. */
  readonly target: string;
  /** Events written that this sink has not taken yet. */
  readonly backlog: number;
  readonly last_delivered_id: number;
  readonly last_error: string | null;
  readonly last_error_at: string | null;
  readonly last_success_at: string | null;
  /** When a failing sink is tried next; null when it is not waiting (what /healthz calls failing). */
  readonly next_attempt_at: string | null;
  /** When its current run of failures began; null while it delivers. */
  readonly failing_since: string | null;
  /**
   * Whether the retention waits for it: events it has not taken are not purged, until it has
   * been failing for longer than SITEWARD_AUDIT_FORWARD_HOLD_DAYS.
   */
  readonly holds_retention: boolean;
}
