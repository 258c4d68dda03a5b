/** `siteward backup now | list | verify <id> | restore <id>`. */
import { parseArgs } from 'node:util';
import type { CliCommand, CliIo } from '../contract.js';
import { createBackup, listBackups, restoreBackup, verifyBackup, type BackupListEntry } from './backups.js';
import type { FeatureMigrations } from './postgres-restore.js';
import type { StoreLocation } from './store-location.js';

export interface BackupCommandDeps {
  readonly dir: string | null;
  readonly location: StoreLocation;
  /** Every feature's migrations: a PostgreSQL restore rebuilds their tables too. */
  readonly migrations: FeatureMigrations;
  readonly clock: () => number;
}

export const BACKUP_USAGE = [
  'backup now                       Back up the store now; prints the new backup\'s id',
  'backup list [--format json]      Backups with id, time, size and status',
  'backup verify <id>               Check the checksum and restore it into a temporary store',
  'backup restore <id>              Replace the store with the backup (stop the server first)',
] as const;

const NOT_CONFIGURED = 'Backups are not configured: set SITEWARD_BACKUP_DIR (config "backupDir").';

function listLine(entry: BackupListEntry): string {
  const problem = entry.problem === undefined ? '' : ` (${entry.problem})`;
  return `${entry.id}  ${entry.time.toISOString()}  ${String(entry.size).padStart(12)}  ${entry.status}${problem}`;
}

async function list(dir: string, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { format: { type: 'string', default: 'text' } }, strict: true });
  if (values.format !== 'text' && values.format !== 'json') {
    io.err(`--format must be text or json (got "${values.format}")`);
    return 2;
  }
  const entries = await listBackups(dir);
  if (values.format === 'json') {
    io.out(JSON.stringify(entries.map((e) => ({ id: e.id, time: e.time.toISOString(), size: e.size, status: e.status, backend: e.backend, ...(e.problem && { problem: e.problem }) }))));
  } else if (entries.length === 0) io.out(`No backups in ${dir}.`);
  else for (const entry of entries) io.out(listLine(entry));
  return 0;
}

export function backupCommand(deps: BackupCommandDeps): CliCommand {
  return {
    name: 'backup',
    usage: BACKUP_USAGE,
    async run(args, io) {
      const [sub, ...rest] = args;
      const { dir } = deps;
      if (sub === undefined || !['now', 'list', 'verify', 'restore'].includes(sub)) {
        io.err(`Usage:\n${BACKUP_USAGE.map((line) => `  siteward ${line}`).join('\n')}`);
        return 2;
      }
      if (dir === null) {
        io.err(NOT_CONFIGURED);
        return 1;
      }
      if (sub === 'now') {
        const created = await createBackup(dir, deps.location, new Date(deps.clock()));
        if (!created.ok) {
          io.err(created.error.message);
          return 1;
        }
        io.out(created.id);
        return 0;
      }
      if (sub === 'list') return list(dir, rest, io);
      const id = rest[0];
      if (id === undefined || rest.length > 1) {
        io.err(`Usage: siteward backup ${sub} <id>`);
        return 2;
      }
      if (sub === 'verify') {
        const postgresUrl = deps.location.backend === 'postgres' ? deps.location.url : undefined;
        const verified = await verifyBackup(dir, id, { postgresUrl, migrations: deps.migrations });
        if (!verified.ok) {
          io.err(verified.error.message);
          return 1;
        }
        io.out(`Backup ${id} is good: checksum ${verified.trialRestore === 'passed' ? 'and trial restore passed' : 'passed (no trial restore without a PostgreSQL URL)'}.`);
        return 0;
      }
      const restored = await restoreBackup(dir, id, deps.location, { now: deps.clock(), migrations: deps.migrations });
      if (!restored.ok) {
        io.err(restored.error.message);
        return 1;
      }
      io.out(`Restored backup ${id}.${restored.previous === null ? '' : ` The replaced store was kept as ${restored.previous}.`}`);
      return 0;
    },
  };
}
