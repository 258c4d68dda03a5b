/**
 * Backups of Siteward's own store (the `vaultpress` module, docs/spec/compat.md §9): the scheduled
 * backup job with retention, the `siteward backup …` commands and
 * `GET jetpack/v4/module/vaultpress/data`. The engine (file format, SQLite online backup,
 * PostgreSQL COPY export, verify, restore with swap) is described in README.md here.
 */
import type { Feature } from '../contract.js';
import { backupCommand } from './backup-commands.js';
import { readLastRun, scheduledBackupJob } from './scheduled-backup.js';
import { configuredLocation } from './store-location.js';
import { vaultpressData } from './vaultpress-data.js';
import { backupSettings } from './settings.js';

export const backupsFeature: Feature = {
  name: 'backups',
  settings: backupSettings,
  register(ctx) {
    const jetpack = ctx.need('jetpack');
    const { config, store, clock } = ctx;
    const dir = config.backupDir;
    const location = configuredLocation(config);

    const data = jetpack.whenModuleActive('vaultpress', async () =>
      vaultpressData({ dir, schedule: config.backupSchedule, lastRun: await readLastRun(store.status), now: clock() }),
    );
    // The 2016 and 4.3+ names are the same path here; the plugin's `module/{slug}/data` route is
    // registered first and answers it through this provider, so this route is the same answer.
    jetpack.registerModuleData('vaultpress', data);
    ctx.api.registerRoute('jetpack/v4', '/module/vaultpress/data', {
      methods: 'GET',
      permissionCallback: jetpack.requirePermission('view_admin'),
      callback: data,
    });

    if (dir !== null) {
      const retention = { keepCount: config.backupKeep, maxAgeDays: config.backupMaxAgeDays };
      ctx.addJob(scheduledBackupJob({ dir, location, schedule: config.backupSchedule, retention, status: store.status, log: ctx.log, clock }));
    }

    ctx.addCommand(backupCommand({ dir, location, migrations: ctx.migrations, clock }));
  },
};
