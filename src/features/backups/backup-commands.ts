/** `siteward backup now | list | verify <id> | restore <id> | prune | clean-kept`. */
import { parseArgs } from 'node:util';
import { textTable } from '../../core/text-table.js';
import type { CliCommand, CliIo } from '../contract.js';
import type { AuditLogRepo, StatusRepo } from '../../store/types.js';
import type { AuditCheckpoint } from '../../wire/audit.js';
import type { Logger } from '../../plugins/api.js';
import { applyRetention } from './backup-retention.js';
import { listKept, removeKept, type KeptCopy } from './kept-copies.js';
import type { BackupSetup } from './backup-setup.js';
import { listBackups, restoreBackup, verifyBackup, type BackupListEntry, type BackupRef } from './backups.js';
import { runBackup } from './scheduled-backup.js';
import { cliSource } from '../audit/index.js';
import { readVerifications, recordVerification, verificationOf, type BackupVerification } from './backup-verifications.js';

export interface BackupCommandDeps {
  readonly setup: BackupSetup;
  readonly status: StatusRepo;
  readonly log: Logger;
  readonly clock: () => number;
  readonly auditLog?: Pick<AuditLogRepo, 'append'>;
  readonly auditCheckpoint?: () => Promise<AuditCheckpoint>;
}

export const BACKUP_USAGE = [
  "backup now                       Back up the store now (to every target); prints the new backup's id",
  'backup list [--format json] [--all-stores]',
  '                                 Backups per target with id, time, size, status, backend, store and verification',
  'backup verify <id> [--target local|s3] [--from-store <store id>]',
  '                                 Check the checksum and restore it into a temporary store',
  'backup restore <id> [--target local|s3] [--from-store <store id>]',
  '                                 Replace the store with the backup (stop the server first)',
  'backup prune [--dry-run]         Apply retention to each target now (--dry-run: only show what would go)',
  'backup clean-kept [--dry-run]    Remove the stores restores replaced and kept (SQLite files, PostgreSQL schemas)',
] as const;

const NOT_CONFIGURED =
  'Backups are not configured: set SITEWARD_BACKUP_DIR (config "backupDir") and/or SITEWARD_BACKUP_S3_URL (config "backupS3Url").';
const LEGACY = 'legacy';

const LIST_HEADER = ['ID', 'TIME', 'SIZE', 'STATUS', 'BACKEND', 'STORE', 'ENCRYPTED', 'VERIFIED'];

/** The backup's latest verification (by `backup verify` or the schedule): `verified <time>`, `VERIFICATION FAILED <time>`, or `-`. */
function verifiedCell(v: BackupVerification | null): string {
  if (v === null) return '-';
  return `${v.ok ? 'verified' : 'VERIFICATION FAILED'} ${new Date(v.time).toISOString()}`;
}

function listRow(entry: BackupListEntry, verification: BackupVerification | null): string[] {
  const problem = entry.problem === undefined ? '' : ` (${entry.problem})`;
  return [
    entry.id,
    entry.time.toISOString(),
    String(entry.size),
    `${entry.status}${problem}`,
    entry.backend ?? '?',
    entry.storeId ?? LEGACY,
    entry.encrypted ? 'yes' : 'no',
    verifiedCell(verification),
  ];
}

async function list(deps: BackupCommandDeps, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { format: { type: 'string', default: 'text' }, 'all-stores': { type: 'boolean', default: false } },
    strict: true,
  });
  if (values.format !== 'text' && values.format !== 'json') {
    io.err(`--format must be text or json (got "${values.format}")`);
    return 2;
  }
  const own = await deps.setup.storeId();
  const verifications = await readVerifications(deps.status);
  const json: unknown[] = [];
  for (const target of deps.setup.targets) {
    const stores: (string | null)[] = values['all-stores'] ? [...new Set([own, ...(await target.stores())]), null] : [own];
    const entries: BackupListEntry[] = [];
    for (const store of stores) entries.push(...(await listBackups(target, store)));
    if (values.format === 'json') {
      for (const e of entries) {
        const v = verificationOf(verifications, { kind: target.kind, where: target.where, id: e.id });
        json.push({
          target: target.kind,
          where: target.where,
          id: e.id,
          time: e.time.toISOString(),
          size: e.size,
          status: e.status,
          backend: e.backend,
          store: e.storeId,
          own: e.storeId === own,
          encrypted: e.encrypted,
          ...(e.problem && { problem: e.problem }),
          verification: v && { time: new Date(v.time).toISOString(), ok: v.ok, message: v.message, by: v.by },
        });
      }
      continue;
    }
    io.out(`${target.kind === 'local' ? 'Local' : 'Off-site'}: ${target.where}  (this store: ${own}, ${deps.setup.location.backend})`);
    if (entries.length === 0) io.out('  no backups');
    else
      for (const line of textTable(
        LIST_HEADER,
        entries.map((entry) => listRow(entry, verificationOf(verifications, { kind: target.kind, where: target.where, id: entry.id }))),
        { right: [2], indent: '  ' },
      ))
        io.out(line);
  }
  if (values.format === 'json') io.out(JSON.stringify(json));
  return 0;
}

/** The backup `id` of `storeId` in the first target (of those allowed) that holds it, or why not. */
async function find(
  deps: BackupCommandDeps,
  id: string,
  storeId: string | null,
  only: string | undefined,
): Promise<{ ok: true; ref: BackupRef } | { ok: false; message: string }> {
  const targets = deps.setup.targets.filter((t) => only === undefined || t.kind === only);
  if (targets.length === 0) return { ok: false, message: `no ${only} backup target is configured` };
  for (const target of targets) {
    if ((await target.list(storeId)).some((b) => b.id === id)) return { ok: true, ref: { target, storeId, id } };
  }
  // Not this store's: say whose it is, so restoring another store's backup is a deliberate choice.
  for (const target of targets) {
    for (const other of [...(await target.stores()), null]) {
      if (other !== storeId && (await target.list(other)).some((b) => b.id === id)) {
        return {
          ok: false,
          message: `backup ${id} in ${target.where} belongs to store ${other ?? LEGACY}, not to this store (${storeId ?? LEGACY}); add --from-store ${other ?? LEGACY} to use it`,
        };
      }
    }
  }
  return { ok: false, message: `no backup ${id} in ${targets.map((t) => t.where).join(' or ')}` };
}

async function useOne(deps: BackupCommandDeps, sub: 'verify' | 'restore', args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { target: { type: 'string' }, 'from-store': { type: 'string' } },
    strict: true,
    allowPositionals: true,
  });
  const id = positionals[0];
  if (id === undefined || positionals.length > 1 || (values.target !== undefined && values.target !== 'local' && values.target !== 's3')) {
    io.err(`Usage: siteward backup ${sub} <id> [--target local|s3] [--from-store <store id>]`);
    return 2;
  }
  const from = values['from-store'];
  const storeId = from === undefined ? await deps.setup.storeId() : from === LEGACY ? null : from;
  const found = await find(deps, id, storeId, values.target);
  if (!found.ok) {
    io.err(`error: ${found.message}`);
    return 1;
  }
  const { setup } = deps;
  if (sub === 'verify') {
    const postgresUrl = setup.location.backend === 'postgres' ? setup.location.url : undefined;
    const verified = await verifyBackup(found.ref, { postgresUrl, migrations: setup.migrations, key: setup.key });
    const address = { kind: found.ref.target.kind, where: found.ref.target.where, id };
    const message = verified.ok
      ? `checksum ${verified.trialRestore === 'passed' ? 'and trial restore passed' : 'passed (no trial restore without a PostgreSQL URL)'}`
      : verified.error.message;
    // Recorded, so that `backup list` and the Backups screen show it as verified (or not).
    await recordVerification(deps.status, address, { time: deps.clock(), ok: verified.ok, message, by: 'cli' });
    if (!verified.ok) {
      io.err(`error: ${message}`);
      return 1;
    }
    io.out(`Backup ${id} is good: ${message}.`);
    return 0;
  }
  const restored = await restoreBackup(found.ref, setup.location, { now: deps.clock(), migrations: setup.migrations, key: setup.key });
  if (!restored.ok) {
    io.err(`error: ${restored.error.message}`);
    return 1;
  }
  if (restored.deadHolder !== undefined) {
    const { pid, host, until } = restored.deadHolder;
    io.out(
      `No Siteward server was running: the background-jobs lease (until ${new Date(until).toISOString()}) was held by process ${pid} on ${host}, which is gone (killed or crashed, so it could not give the lease up). The restored store starts without it.`,
    );
  }
  io.out(`Restored backup ${id} from ${found.ref.target.where}.`);
  if (restored.previous !== null) io.out(keptNote(setup.location.backend, restored.previous));
  return 0;
}

/** What a restore kept, what it is for, and how and when to remove it. */
function keptNote(backend: 'sqlite' | 'postgres', previous: string): string {
  const what =
    backend === 'postgres'
      ? `The replaced store was kept as the PostgreSQL schema ${previous}, in the same database; nothing reads it.`
      : `The replaced store was kept as the file ${previous} (with its -wal and -shm, if any); nothing reads it.`;
  return `${what} Once the restored site works (start the server and log in), it is safe to remove: siteward backup clean-kept${
    backend === 'postgres' ? ` (or DROP SCHEMA "${previous}" CASCADE)` : ''
  }. Until then it is the way back.`;
}

async function cleanKept(deps: BackupCommandDeps, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { 'dry-run': { type: 'boolean', default: false } }, strict: true });
  const found = await listKept(deps.setup.location);
  if (found.length === 0) {
    io.out('No kept stores.');
    return 0;
  }
  const describe = (c: KeptCopy) => (c.kind === 'schema' ? `schema ${c.name}` : `${c.name} (${c.bytes ?? 0} bytes with -wal/-shm)`);
  if (values['dry-run']) {
    for (const copy of found) io.out(`would remove ${describe(copy)}`);
    return 0;
  }
  for (const copy of await removeKept(deps.setup.location, found)) io.out(`removed ${describe(copy)}`);
  return 0;
}

async function prune(deps: BackupCommandDeps, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { 'dry-run': { type: 'boolean', default: false } }, strict: true });
  const dryRun = values['dry-run'];
  const storeId = await deps.setup.storeId();
  for (const target of deps.setup.targets) {
    const result = await applyRetention(target, storeId, deps.setup.retention, new Date(deps.clock()), { dryRun });
    io.out(`${target.where}:`);
    for (const decision of [...result.decisions].reverse()) {
      const gone = decision.keptBy.length === 0;
      io.out(`  ${decision.id}  ${gone ? (dryRun ? 'would delete' : 'deleted') : `keep (${decision.keptBy.join(', ')})`}`);
    }
    io.out(`  ${result.deleted.length} ${dryRun ? 'would be deleted' : 'deleted'}, ${result.kept.length} kept`);
  }
  return 0;
}

/** A wrong flag is a usage error (exit 2); anything else goes on up. */
function parseError(error: unknown, io: CliIo): number {
  if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true) {
    io.err((error as Error).message);
    return 2;
  }
  throw error;
}

export function backupCommand(deps: BackupCommandDeps): CliCommand {
  return {
    name: 'backup',
    usage: BACKUP_USAGE,
    async run(args, io) {
      const [sub, ...rest] = args;
      if (sub === undefined || !['now', 'list', 'verify', 'restore', 'prune', 'clean-kept'].includes(sub)) {
        io.err(`Usage:\n${BACKUP_USAGE.map((line) => `  siteward ${line}`).join('\n')}`);
        return 2;
      }
      // The kept stores are the store's, not a target's: removable with no target configured.
      if (sub === 'clean-kept') return await cleanKept(deps, rest, io).catch((error: unknown) => parseError(error, io));
      if (deps.setup.targets.length === 0) {
        io.err(NOT_CONFIGURED);
        return 1;
      }
      try {
        if (sub === 'now') {
          const run = await runBackup(deps, cliSource());
          if (!run.ok) {
            io.err(run.message);
            return 1;
          }
          io.out(run.id);
          return 0;
        }
        if (sub === 'list') return await list(deps, rest, io);
        if (sub === 'prune') return await prune(deps, rest, io);
        return await useOne(deps, sub as 'verify' | 'restore', rest, io);
      } catch (error) {
        return parseError(error, io);
      }
    },
  };
}
