/**
 * The audit log (docs/audit-log.md): the events themselves are written by the store's
 * transactions (`tx.audit`); this feature signs checkpoints, applies the retention and adds the
 * `siteward audit` command.
 */
import type { Feature } from '../contract.js';
import { registerAuditAbilities } from './audit-abilities.js';
import { recordAbilityRuns, ReadonlyRuns } from './ability-runs.js';
import { auditCommand, type BackupManifestReader } from './audit-commands.js';
import { registerCheckpointRoute } from './checkpoint-route.js';
import { registerAuditRoutes } from './audit-routes.js';
import { purgeOld, writeCheckpoint } from './checkpoints.js';
import { auditSettings } from './settings.js';
import { DENIED_MIGRATION_NAME, deniedMigration, deniedRequests, flushDenied, type DeniedTables } from './refusals.js';
import { jobSource, RequestSources } from './source.js';
import { recordVerifyFailure } from './verify.js';
import { FAILED_LOGIN_WINDOW_MS, failedLoginGuard } from './failed-logins.js';
import { auditKeys } from './signing.js';
import {
  FAILING_SINCE_MIGRATION_NAME,
  failingSinceMigration,
  FORWARD_MIGRATION_NAME,
  forwardMigration,
  type ForwardTables,
} from './forwarding/forwarder.js';
import { createForwarder } from './forwarding/setup.js';
import { Alerter, alertRules, DIGEST_EVERY_MS } from './alerts.js';
import { featureDb } from '../db/feature-db.js';
import { smtpMailer } from '../mailer.js';

declare module '../contract.js' {
  interface FeatureServices {
    /** Hands audit the reader of a backup file's manifest (for `audit verify --checkpoint`). */
    auditBackupManifests: (reader: BackupManifestReader) => void;
  }
}

// The surface other features use (test/layers.test.ts): how to say who did something and describe an option write.
export {
  abilityCallerSource,
  auditEvent,
  cliSource,
  jobSource,
  pageSource,
  RequestSources,
  sessionTokenHash,
  type AuditSource,
} from './source.js';
export { passwordSetEvents } from './password-events.js';
export { audited, type Described } from './audited.js';
export { writeCheckpoint } from './checkpoints.js';
export { auditKeys } from './signing.js';

/** Checkpoints are signed at least this often (the issue asks for hourly). */
export const CHECKPOINT_EVERY_MS = 3_600_000;
/** The retention runs this often. */
export const RETENTION_EVERY_MS = 86_400_000;

/** How often each process writes the repeats of readonly ability runs whose window has ended (on the jobs' round, every 10 s by default). */
export const ABILITY_RUN_FLUSH_EVERY_MS = 10_000;

/** How often the forwarding job looks for events its sinks have not taken (it runs on the jobs' round, every 10 s by default). */
export const FORWARD_EVERY_MS = 5_000;

export const auditFeature: Feature = {
  name: 'audit',
  settings: auditSettings,
  migrations: {
    [FORWARD_MIGRATION_NAME]: forwardMigration,
    [FAILING_SINCE_MIGRATION_NAME]: failingSinceMigration,
    [DENIED_MIGRATION_NAME]: deniedMigration,
  },
  register(ctx) {
    const { store, config, clock, log } = ctx;
    const keys = auditKeys(ctx.secrets.auditSigningSeed);
    const forwarder = createForwarder(config, store, log);
    ctx.addJob({ name: 'audit-checkpoint', everyMs: CHECKPOINT_EVERY_MS, run: () => writeCheckpoint(store.auditLog, keys, clock()) });
    ctx.addJob({
      name: 'audit-retention',
      everyMs: RETENTION_EVERY_MS,
      run: async () => {
        // Events a forwarding sink has not taken yet stay, unless it has failed for too long (docs/audit-log.md "Retention").
        const now = clock();
        const hold = await forwarder.retentionHold(now, config.auditForwardHoldDays);
        const result = await purgeOld(store.auditLog, keys, now, config.auditRetentionDays, { holdAt: hold.holdAt });
        if (!result.ok) {
          log.error({ reason: result.reason }, 'audit retention refused to purge: the chain is broken (run siteward audit verify)');
          // An event of its own, so that alerts and forwarding tell someone.
          await recordVerifyFailure(store.auditLog, jobSource('audit-retention'), result.row, result.reason);
        } else {
          if (result.deleted > 0) log.info({ deleted: result.deleted, cutAt: result.cutAt }, 'audit events purged');
          const released = hold.sinks.filter((s) => !s.holds).map((s) => s.sink);
          if (released.length > 0)
            log.warn(
              { sinks: released, holdDays: config.auditForwardHoldDays },
              'audit retention no longer waits for forwarding sinks failing for longer than SITEWARD_AUDIT_FORWARD_HOLD_DAYS: events they missed may be purged',
            );
        }
      },
    });
    ctx.addPasswordGuard(failedLoginGuard(store.auditLog, clock));
    ctx.addJob({
      name: 'audit-failed-logins',
      everyMs: 60_000,
      run: () => store.auditLog.flushFailedLogins(clock(), FAILED_LOGIN_WINDOW_MS),
    });
    const readonlyRuns = new ReadonlyRuns(
      (events) => store.auditLog.append(events),
      (error) => log.warn({ err: error }, 'could not record an ability run in the audit log'),
      clock,
    );
    const deniedDb = featureDb<DeniedTables>(store);
    recordAbilityRuns(ctx.need('abilityRegistry'), readonlyRuns);
    // Each process counts its own repeats: every process writes its ended windows, and its last ones when it stops.
    ctx.addJob({
      name: 'audit-ability-runs',
      everyMs: ABILITY_RUN_FLUSH_EVERY_MS,
      everyProcess: true,
      run: () => readonlyRuns.flush(clock()),
    });
    ctx.onClose(() => readonlyRuns.flush(Infinity));
    ctx.onRequestRefused(
      deniedRequests(new RequestSources(store.appPasswords, clock), deniedDb, clock, (error) =>
        log.warn({ err: error }, 'could not record a refused request in the audit log'),
      ),
    );
    ctx.addJob({ name: 'audit-denied', everyMs: 60_000, run: () => flushDenied(deniedDb, clock()) });
    // `audit verify --checkpoint <file.swbak>` reads a backup's manifest with the backups feature's reader,
    // handed over through need() so that audit never imports backups (backups records audit events).
    let backupManifests: BackupManifestReader | undefined;
    ctx.provide('auditBackupManifests', (reader) => {
      backupManifests = reader;
    });
    ctx.addCommand(auditCommand(store.auditLog, keys, () => backupManifests));
    if (forwarder.sinks.length > 0) ctx.addJob({ name: 'audit-forward', everyMs: FORWARD_EVERY_MS, run: () => forwarder.runOnce(clock()) });
    ctx.need('health').add('audit_forwarding', async () =>
      (await forwarder.status(clock(), config.auditForwardHoldDays)).map((s) => ({
        sink: s.sink,
        kind: s.kind,
        backlog: s.backlog,
        failing: s.next_attempt_at !== null,
        last_error_at: s.last_error_at,
        last_success_at: s.last_success_at,
        failing_since: s.failing_since,
        holds_retention: s.holds_retention,
      })),
    );
    const alerter = new Alerter({
      log: store.auditLog,
      db: featureDb<ForwardTables>(store),
      rules: alertRules(config.auditAlertActions),
      site: config.homeUrl,
      mailer: smtpMailer(config),
      recipients: async () => {
        if (config.auditAlertEmails.length > 0) return config.auditAlertEmails;
        const emails: string[] = [];
        for (const user of await store.users.list())
          if ((await store.users.roles(user.id)).includes('administrator')) emails.push(user.email);
        return emails;
      },
      webhook: config.auditAlertWebhookUrl === null ? null : { url: config.auditAlertWebhookUrl, format: config.auditAlertWebhookFormat },
    });
    if (alerter.enabled) ctx.addJob({ name: 'audit-alerts', everyMs: DIGEST_EVERY_MS, run: () => alerter.runOnce(clock()) });
    registerAuditRoutes(ctx.api, store.auditLog, clock, forwarder, config.auditForwardHoldDays);
    registerAuditAbilities(ctx.api, store.auditLog);
    registerCheckpointRoute(ctx.api, store.auditLog, keys.publicKey);
  },
};
