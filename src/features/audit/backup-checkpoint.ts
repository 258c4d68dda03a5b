/**
 * A backup's audit checkpoint (docs/audit-log.md "Checkpoints in backups"): every backup's
 * manifest carries a checkpoint signed just before its snapshot, so a restored store (or the live
 * one, later) can be checked against it: the chain must verify and still hold the backup's head.
 */
import type { KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AuditLogRepo } from '../../store/types.js';
import type { AuditCheckpoint } from '../../wire/audit.js';
import { checkpointSignatureHolds } from './signing.js';
import { verifyAuditLog } from './verify.js';

export type CheckpointCheck =
  | { readonly ok: true; readonly message: string }
  /** `row`: the row that breaks, when the failure names one. */
  | { readonly ok: false; readonly message: string; readonly row: number | null };

/** A checkpoint's shape, or null. */
export function parseCheckpoint(value: unknown): AuditCheckpoint | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const c = value as Record<string, unknown>;
  const count = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  if (!count(c.last_id) || !count(c.count) || !count(c.time)) return null;
  if (typeof c.head_hash !== 'string' || !/^[0-9a-f]{64}$/.test(c.head_hash)) return null;
  if (typeof c.signature !== 'string' || c.signature.length === 0 || c.signature.length > 200) return null;
  return { last_id: c.last_id as number, head_hash: c.head_hash, count: c.count as number, time: c.time as number, signature: c.signature };
}

/** The checkpoint of a backup file (`.swbak`: its manifest's `auditCheckpoint`) or of a JSON file (a checkpoint, or a manifest). */
export async function readCheckpointFile(
  file: string,
  manifestOf: (file: string) => Promise<{ readonly ok: true; readonly manifest: object } | { readonly ok: false; readonly reason: string }>,
): Promise<AuditCheckpoint | string> {
  let value: unknown;
  if (file.endsWith('.swbak')) {
    const header = await manifestOf(file);
    if (!header.ok) return `${file}: ${header.reason}`;
    value = header.manifest;
  } else {
    try {
      value = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      return `${file}: ${(error as Error).message}`;
    }
  }
  const inner =
    value !== null && typeof value === 'object' && 'auditCheckpoint' in value
      ? (value as { auditCheckpoint: unknown }).auditCheckpoint
      : value;
  return parseCheckpoint(inner) ?? `${file} holds no audit checkpoint (backups made before checkpoints have none)`;
}

/**
 * Checks the store's audit log against a backup's checkpoint: its signature is this site's, the
 * chain verifies, and the row the checkpoint names is still there with the signed hash (or, when
 * retention purged it, a stored checkpoint at that row says the same).
 */
export async function checkAgainstCheckpoint(
  log: AuditLogRepo,
  publicKey: KeyObject,
  checkpoint: AuditCheckpoint,
): Promise<CheckpointCheck> {
  if (!checkpointSignatureHolds(publicKey, checkpoint))
    return {
      ok: false,
      message: "the backup's checkpoint is not signed by this site's key (another SITEWARD_SECRET, or an edited manifest)",
      row: null,
    };
  const chain = await verifyAuditLog(log, publicKey);
  if (!chain.ok) return { ok: false, message: `Audit log BROKEN at row ${chain.row}: ${chain.reason}`, row: chain.row };
  const at = new Date(checkpoint.time).toISOString();
  if (checkpoint.last_id === 0) return { ok: true, message: `Audit log matches the backup's checkpoint (an empty log at ${at}).` };
  const head = await log.head();
  if (head.count < checkpoint.count)
    return {
      ok: false,
      message: `the store has ${head.count} events, fewer than the ${checkpoint.count} the backup's checkpoint signed at ${at}: rows were cut`,
      row: head.lastId + 1,
    };
  const [row] = await log.rows(checkpoint.last_id - 1, 1);
  if (row && row.id === checkpoint.last_id) {
    if (row.hash !== checkpoint.head_hash)
      return {
        ok: false,
        message: `row ${row.id} differs from the backup's signed checkpoint (${at}): history was rewritten`,
        row: row.id,
      };
  } else {
    const stored = (await log.checkpoints()).find((c) => c.last_id === checkpoint.last_id);
    if (!stored || stored.head_hash !== checkpoint.head_hash)
      return {
        ok: false,
        message: `row ${checkpoint.last_id} of the backup's checkpoint is gone and no stored checkpoint vouches for it`,
        row: checkpoint.last_id,
      };
  }
  return {
    ok: true,
    message: `Audit log matches the backup's checkpoint: row ${checkpoint.last_id} (${checkpoint.count} events, signed ${at}) is unchanged.`,
  };
}
