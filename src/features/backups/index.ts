/**
 * Backups of Siteward's own store (the `vaultpress` module, docs/spec/compat.md §9): backups to
 * a local directory and/or an S3-compatible bucket, optionally encrypted, the scheduled backup
 * job with retention, the scheduled verification job, the `siteward backup …` commands,
 * `GET jetpack/v4/module/vaultpress/data`, Siteward's own `siteward/v1/backups` routes for the
 * admin page's Backups screen, and the download page. The engine (file format, SQLite online
 * backup, PostgreSQL COPY export, verify, restore with swap) is described in README.md here.
 */
import type { BackupsList } from '../../wire/siteward-v1.js';
import type { Feature } from '../contract.js';
import { SITEWARD_NAMESPACE } from '../history-route.js';
import { backupsError } from './errors.js';
import { backupCommand } from './backup-commands.js';
import { backupDownloadPage } from './backup-download.js';
import { backupsList } from './backups-list.js';
import { readVerifications } from './backup-verifications.js';
import { backupSetup, type BackupTuning } from './backup-setup.js';
import { readLastRun, runBackup, scheduledBackupJob } from './scheduled-backup.js';
import { readLastVerification, runVerification, scheduledVerificationJob } from './scheduled-verification.js';
import { registerBackupAbilities, type BackupOperations } from './abilities.js';
import { backupSettings } from './settings.js';
import { readBackupHeader } from './backup-file.js';

// The surface other features use (test/layers.test.ts): how a backup file's header is read.
export { readBackupHeader };
import { RequestSources, writeCheckpoint, auditKeys } from '../audit/index.js';
import { STORE_ID_MIGRATION_NAME, storeIdMigration } from './store-id.js';
import { backupsServiceGap, vaultpressData, vaultpressNotRegistered } from './vaultpress-data.js';
import { JETPACK_NAMESPACE } from '../jetpack-v4/route-helpers.js';
import { defineRoute } from '../../rest/define-route.js';

/** The feature with test tuning (no real waits between upload attempts). */
export function backupsFeatureWith(tuning: BackupTuning): Feature {
  return {
    name: 'backups',
    settings: backupSettings,
    migrations: { [STORE_ID_MIGRATION_NAME]: storeIdMigration },
    register(ctx) {
      const jetpack = ctx.need('jetpack');
      ctx.need('auditBackupManifests')(readBackupHeader);
      const { config, store, clock } = ctx;
      const setup = backupSetup(config, store, ctx.migrations, tuning);
      const keys = auditKeys(ctx.secrets.auditSigningSeed);
      const deps = {
        setup,
        status: store.status,
        log: ctx.log,
        clock,
        auditLog: store.auditLog,
        auditCheckpoint: () => writeCheckpoint(store.auditLog, keys, clock()),
      };
      const sources = new RequestSources(store.appPasswords, clock);
      const state = async () => ({ lastRun: await readLastRun(store.status), lastVerification: await readLastVerification(store.status) });

      // Without a target the module is unavailable (so never `activated`), and Backups says so.
      jetpack.registerServiceCheck('vaultpress', () => (setup.targets.length === 0 ? backupsServiceGap : null));
      const active = jetpack.whenModuleActive('vaultpress', async () =>
        vaultpressData({
          setup,
          schedule: config.backupSchedule,
          verifySchedule: config.backupVerifySchedule,
          ...(await state()),
          now: clock(),
        }),
      );
      // Unconfigured keeps its 2016 answer (`not_registered`, what to set) rather than `not_active`.
      const data = async () => (setup.targets.length === 0 ? vaultpressNotRegistered() : active());
      // The 2016 and 4.3+ names are the same path here; the plugin's `module/{slug}/data` route is
      // registered first and answers it through this provider, so this route is the same answer.
      jetpack.registerModuleData('vaultpress', data);
      ctx.api.registerRoute(
        JETPACK_NAMESPACE,
        '/module/vaultpress/data',
        defineRoute({ permission: jetpack.permission('view_admin'), handler: data }),
      );

      // One backup at a time from this process ("back up now" answers at once; the page polls).
      let running: Promise<unknown> | null = null;
      // Each operation serves its route and its ability (one function, two doors).
      const operations: BackupOperations = {
        list: async () => {
          if (setup.targets.length === 0) return backupsError('backups_not_configured');
          return {
            ...(await backupsList(setup, await readVerifications(store.status))),
            running: running !== null,
          } satisfies BackupsList;
        },
        start: (source) => {
          if (setup.targets.length === 0) return backupsError('backups_not_configured');
          if (running !== null) return backupsError('backup_running');
          running = runBackup(deps, source)
            .catch((error: unknown) => ctx.log.error({ err: error }, 'backup failed'))
            .finally(() => {
              running = null;
            });
          return { started: true };
        },
        verify: async () => {
          if (setup.targets.length === 0) return backupsError('backups_not_configured');
          return runVerification(setup, store.status, ctx.log, clock());
        },
      };
      ctx.api.registerRoute(SITEWARD_NAMESPACE, '/backups', [
        {
          methods: 'GET',
          permissionCallback: jetpack.requirePermission('manage_settings'),
          callback: operations.list,
        },
        {
          methods: 'POST',
          permissionCallback: jetpack.requirePermission('manage_settings'),
          callback: async (request) => operations.start(await sources.of(request)),
        },
      ]);

      registerBackupAbilities(ctx.api, operations, jetpack.allows);

      ctx.addPage(backupDownloadPage(setup));

      if (setup.targets.length > 0) {
        ctx.addJob(scheduledBackupJob({ ...deps, schedule: config.backupSchedule }));
        ctx.addJob(scheduledVerificationJob({ ...deps, schedule: config.backupVerifySchedule }));
      }

      ctx.addCommand(backupCommand(deps));
    },
  };
}

export const backupsFeature: Feature = backupsFeatureWith({});
