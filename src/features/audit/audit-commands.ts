/** `siteward audit list | show <id> | verify | export --format ndjson|csv` (docs/audit-log.md "CLI"). */
import { parseArgs } from 'node:util';
import { textTable } from '../../core/text-table.js';
import type { AuditFilter, AuditLogRepo } from '../../store/types.js';
import type { AuditEvent, AuditResult } from '../../wire/audit.js';
import type { CliCommand, CliIo } from '../contract.js';
import type { AuditKeys } from './signing.js';
import { exportChunks } from './export.js';
import { tailLog } from './tail.js';
import { recordVerifyFailure, verifyAuditLog } from './verify.js';
import { cliSource } from './source.js';
import { checkAgainstCheckpoint, readCheckpointFile } from './backup-checkpoint.js';

export const AUDIT_USAGE = [
  'audit list [filters] [--limit N] [--offset N] [--format json]',
  '                                 Events, newest first',
  'audit show <id>                  One event in full (JSON)',
  'audit verify                     Recompute the hash chain and check the signed checkpoints; exit 1 naming the first broken row',
  'audit tail [-f] [filters] [--lines N] [--interval MS] [--format json]',
  '                                 The last N events (10), then with -f each new one as it is written (Ctrl-C ends)',
  "audit verify --checkpoint <file> Also check the log still holds a backup's signed checkpoint (a .swbak file, or its manifest/checkpoint JSON)",
  'audit export --format ndjson|csv [filters]',
  '                                 Every matching event, oldest first, streamed to standard output',
  '  filters: --action <name|prefix.*> --actor <user id> --object <type[:id]> --result ok|denied|failed',
  '           --after <ISO time> --before <ISO time> --search <text>',
] as const;

const FILTER_OPTIONS = {
  action: { type: 'string' },
  actor: { type: 'string' },
  object: { type: 'string' },
  result: { type: 'string' },
  after: { type: 'string' },
  before: { type: 'string' },
  search: { type: 'string' },
} as const;

class UsageError extends Error {}

function time(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms)) throw new UsageError(`--${name} must be an ISO 8601 time or milliseconds since the epoch (got "${text}")`);
  return ms;
}

function filterOf(values: Partial<Record<keyof typeof FILTER_OPTIONS, string>>): AuditFilter {
  const filter: { -readonly [K in keyof AuditFilter]: AuditFilter[K] } = {};
  if (values.action !== undefined) filter.action = values.action;
  if (values.actor !== undefined) {
    if (!/^\d+$/.test(values.actor)) throw new UsageError(`--actor must be a user id (got "${values.actor}")`);
    filter.actorUserId = Number(values.actor);
  }
  if (values.object !== undefined) {
    const [type, ...id] = values.object.split(':');
    filter.objectType = type;
    if (id.length > 0) filter.objectId = id.join(':');
  }
  if (values.result !== undefined) {
    if (!['ok', 'denied', 'failed'].includes(values.result))
      throw new UsageError(`--result must be ok, denied or failed (got "${values.result}")`);
    filter.result = values.result as AuditResult;
  }
  const after = time('after', values.after);
  const before = time('before', values.before);
  if (after !== undefined) filter.after = after;
  if (before !== undefined) filter.before = before;
  if (values.search !== undefined) filter.search = values.search;
  return filter;
}

function count(name: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) > max) throw new UsageError(`--${name} must be a whole number from 0 to ${max} (got "${text}")`);
  return Number(text);
}

function actorText(event: AuditEvent): string {
  const { actor } = event;
  if (actor.kind === 'user') return `${actor.login} (#${actor.user_id})`;
  if (actor.kind === 'cli') return actor.credential.type === 'os_user' ? `cli:${actor.credential.name}` : 'cli';
  if (actor.kind === 'job') return `job:${actor.job ?? '?'}`;
  return 'anonymous';
}

async function list(log: AuditLogRepo, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { ...FILTER_OPTIONS, limit: { type: 'string' }, offset: { type: 'string' }, format: { type: 'string' } },
    strict: true,
  });
  const filter = filterOf(values);
  const events = await log.list(filter, {
    limit: count('limit', values.limit, 50, 10_000),
    offset: count('offset', values.offset, 0, 1e12),
  });
  if (values.format === 'json') {
    io.out(JSON.stringify(events, null, 2));
    return 0;
  }
  if (values.format !== undefined) throw new UsageError(`--format must be json (got "${values.format}")`);
  const rows = events.map((e) => [
    String(e.id),
    new Date(e.time).toISOString(),
    e.action,
    e.result,
    actorText(e),
    e.client_ip || '-',
    e.object ? `${e.object.type}:${e.object.id}` : '-',
  ]);
  for (const line of textTable(['ID', 'TIME', 'ACTION', 'RESULT', 'ACTOR', 'ADDRESS', 'OBJECT'], rows)) io.out(line);
  return 0;
}

/** One event on one line, for `tail`. */
function eventLine(e: AuditEvent): string {
  return [
    String(e.id),
    new Date(e.time).toISOString(),
    e.action,
    e.result,
    actorText(e),
    e.client_ip || '-',
    e.object ? `${e.object.type}:${e.object.id}` : '-',
  ].join('  ');
}

/** Aborted by the first SIGINT or SIGTERM while `run` runs (the CLI's own process). */
async function untilSignal<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    return await run(controller.signal);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

async function tail(log: AuditLogRepo, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...FILTER_OPTIONS,
      follow: { type: 'boolean', short: 'f' },
      lines: { type: 'string', short: 'n' },
      interval: { type: 'string' },
      format: { type: 'string' },
    },
    strict: true,
  });
  if (values.format !== undefined && values.format !== 'json') throw new UsageError(`--format must be json (got "${values.format}")`);
  const filter = filterOf(values);
  const lines = count('lines', values.lines, 10, 10_000);
  const intervalMs = count('interval', values.interval, 1000, 3_600_000);
  if (intervalMs < 10) throw new UsageError('--interval must be at least 10 (milliseconds)');
  const print = (event: AuditEvent) => {
    const line = values.format === 'json' ? JSON.stringify(event) : eventLine(event);
    return io.write ? io.write(`${line}\n`) : io.out(line);
  };
  const run = (signal: AbortSignal) => tailLog(log, { filter, lines, follow: values.follow === true, intervalMs, print, signal });
  await (io.signal ? run(io.signal) : untilSignal(run));
  return 0;
}

async function exportLog(log: AuditLogRepo, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { ...FILTER_OPTIONS, format: { type: 'string' } }, strict: true });
  if (values.format !== 'ndjson' && values.format !== 'csv')
    throw new UsageError(`--format must be ndjson or csv (got "${values.format ?? ''}")`);
  const filter = filterOf(values);
  for await (const chunk of exportChunks(log, filter, values.format)) {
    if (io.signal?.aborted === true) return 130;
    if (io.write) await io.write(chunk);
    else io.out(chunk.replace(/\r?\n$/, ''));
  }
  return 0;
}

/** Reads a `.swbak` file's manifest: the backups feature hands it over (audit is registered before backups). */
export type BackupManifestReader = Parameters<typeof readCheckpointFile>[1];

export function auditCommand(log: AuditLogRepo, keys: AuditKeys, backupManifests: () => BackupManifestReader | undefined): CliCommand {
  return {
    name: 'audit',
    usage: AUDIT_USAGE,
    async run(args, io) {
      const [sub, ...rest] = args;
      try {
        if (sub === 'list') return await list(log, rest, io);
        if (sub === 'export') return await exportLog(log, rest, io);
        if (sub === 'tail') return await tail(log, rest, io);
        if (sub === 'show') {
          const [id, ...extra] = rest;
          if (id === undefined || !/^\d+$/.test(id) || extra.length > 0) throw new UsageError('usage: siteward audit show <id>');
          const event = await log.get(Number(id));
          if (!event) {
            io.err(`No audit event ${id}.`);
            return 1;
          }
          io.out(JSON.stringify(event, null, 2));
          return 0;
        }
        if (sub === 'verify') {
          const { values } = parseArgs({ args: rest, options: { checkpoint: { type: 'string' } }, strict: true });
          if (values.checkpoint !== undefined) return await verifyCheckpoint(log, keys, values.checkpoint, io, backupManifests());
          const result = await verifyAuditLog(log, keys.publicKey);
          if (!result.ok) {
            io.err(`Audit log BROKEN at row ${result.row}: ${result.reason}.`);
            await recordFailure(log, io, result.row, result.reason);
            return 1;
          }
          const from = result.firstId === null ? 'no rows' : `rows ${result.firstId}–${result.lastId}`;
          io.out(`Audit log verified: ${from} (${result.rows} events), ${result.checkpoints} signed checkpoint(s).`);
          return 0;
        }
        throw new UsageError(`usage:\n  siteward ${AUDIT_USAGE.join('\n  siteward ')}`);
      } catch (error) {
        if (error instanceof UsageError) {
          io.err(error.message);
          return 2;
        }
        throw error;
      }
    },
  };
}

/** `audit verify --checkpoint <file>`: the chain, and the backup's signed head in it. */
async function verifyCheckpoint(
  log: AuditLogRepo,
  keys: AuditKeys,
  file: string,
  io: CliIo,
  manifests: BackupManifestReader | undefined,
): Promise<number> {
  const noBackups: BackupManifestReader = () =>
    Promise.resolve({ ok: false, reason: 'backup files are read by the backups feature, which is not loaded' });
  const checkpoint = await readCheckpointFile(file, manifests ?? noBackups);
  if (typeof checkpoint === 'string') {
    io.err(checkpoint);
    return 1;
  }
  const result = await checkAgainstCheckpoint(log, keys.publicKey, checkpoint);
  if (result.ok) {
    io.out(result.message);
    return 0;
  }
  io.err(result.message);
  await recordFailure(log, io, result.row, `checked against ${file}: ${result.message}`);
  return 1;
}

/** Records `audit.verify_failed`; a store that cannot take it does not hide the verdict already printed. */
async function recordFailure(log: AuditLogRepo, io: CliIo, row: number | null, reason: string): Promise<void> {
  try {
    await recordVerifyFailure(log, cliSource(), row, reason);
  } catch (error) {
    io.err(`Could not record audit.verify_failed in the log: ${error instanceof Error ? error.message : String(error)}`);
  }
}
