/**
 * Writing checkpoints and cutting the log at one (retention). Both run as background jobs on the
 * one process holding the jobs' lease.
 */
import type { AuditLogRepo } from '../../store/types.js';
import type { AuditCheckpoint } from '../../wire/audit.js';
import { signCheckpoint, type AuditKeys } from './signing.js';
import { verifyAuditLog } from './verify.js';

/** Signs the chain's current head and stores the checkpoint. */
export async function writeCheckpoint(log: AuditLogRepo, keys: AuditKeys, now: number): Promise<AuditCheckpoint> {
  const head = await log.head();
  const checkpoint = signCheckpoint(keys, { last_id: head.lastId, head_hash: head.hash, count: head.count, time: now });
  await log.addCheckpoint(checkpoint);
  return checkpoint;
}

export type PurgeResult =
  | { readonly ok: true; readonly deleted: number; readonly cutAt: number | null }
  /** `row`: the first broken row. */
  | { readonly ok: false; readonly reason: string; readonly row: number };

/** Rows deleted per statement: each holds its locks for a moment only (measured in docs/audit-log.md). */
export const PURGE_BATCH = 1000;

export interface PurgeOptions {
  /** Rows deleted per statement. */
  readonly batch?: number;
  /** Waits between batches (lets other writers in). */
  readonly pause?: () => Promise<void>;
  /** The newest id that may go (the forwarding's slowest holding sink); null: no limit. */
  readonly holdAt?: number | null;
}

/**
 * Deletes the events older than `retentionDays`, but none after `holdAt` (events a forwarding
 * sink has not taken yet): first the part to cut is verified (a broken chain is never laundered
 * by a purge), then a checkpoint is signed at the newest old row, then the rows up to it go in
 * batches, then the checkpoints before it. Verification then starts at that checkpoint.
 */
export async function purgeOld(
  log: AuditLogRepo,
  keys: AuditKeys,
  now: number,
  retentionDays: number,
  options: PurgeOptions = {},
): Promise<PurgeResult> {
  const { batch = PURGE_BATCH, pause = () => new Promise<void>((resolve) => setImmediate(resolve)), holdAt = null } = options;
  const old = await log.lastIdBefore(now - retentionDays * 86_400_000);
  if (old === null) return { ok: true, deleted: 0, cutAt: null };
  const cutAt = holdAt === null ? old : Math.min(old, holdAt);
  if (cutAt <= 0) return { ok: true, deleted: 0, cutAt: null };
  const verified = await verifyAuditLog(log, keys.publicKey, cutAt);
  if (!verified.ok) return { ok: false, reason: `not purged: ${verified.reason}`, row: verified.row };
  if (verified.firstId === null) return { ok: true, deleted: 0, cutAt };
  const [row] = await log.rows(cutAt - 1, 1);
  if (!row || row.id !== cutAt) return { ok: false, reason: `not purged: row ${cutAt} vanished`, row: cutAt };
  await log.addCheckpoint(signCheckpoint(keys, { last_id: cutAt, head_hash: row.hash, count: cutAt, time: now }));
  let deleted = 0;
  for (;;) {
    const n = await log.purgeThrough(cutAt, batch);
    deleted += n;
    if (n < batch) break;
    await pause();
  }
  await log.dropCheckpointsBefore(cutAt);
  return { ok: true, deleted, cutAt };
}
