import { rm } from 'node:fs/promises';
import { backupFile, syncDir } from './backup-file.js';
import { listBackups, type BackupListEntry } from './backups.js';
import { DAY_MS } from '../../core/time.js';

export interface RetentionPolicy {
  /** How many good backups to keep at most (≥ 1). */
  readonly keepCount: number;
  /** Backups older than this many days are removed (> 0). */
  readonly maxAgeDays: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { keepCount: 14, maxAgeDays: 14 };


/**
 * Which backups have expired, oldest first. A good backup expires when it is not among the
 * `keepCount` newest good ones, or when it is more than `maxAgeDays` old (exactly that old
 * still stays). The newest good backup never expires: if backups stop working for a while,
 * the last good one must survive. Corrupt backups take no place in the count and expire by
 * age only, so they stay around long enough to be looked at.
 */
export function expiredBackups(entries: readonly BackupListEntry[], policy: RetentionPolicy, now: number): string[] {
  if (!Number.isInteger(policy.keepCount) || policy.keepCount < 1) throw new RangeError(`keepCount must be an integer ≥ 1 (got ${policy.keepCount})`);
  if (!(policy.maxAgeDays > 0)) throw new RangeError(`maxAgeDays must be > 0 (got ${policy.maxAgeDays})`);
  const maxAgeMs = policy.maxAgeDays * DAY_MS;
  const newestFirst = [...entries].sort((a, b) => b.time.getTime() - a.time.getTime() || (a.id < b.id ? 1 : -1));
  const expired = new Set<string>();
  let goodRank = 0;
  for (const entry of newestFirst) {
    const tooOld = now - entry.time.getTime() > maxAgeMs;
    if (entry.status !== 'ok') {
      if (tooOld) expired.add(entry.id);
      continue;
    }
    const rank = goodRank++;
    if (rank > 0 && (rank >= policy.keepCount || tooOld)) expired.add(entry.id);
  }
  return entries.filter((e) => expired.has(e.id)).map((e) => e.id);
}

export interface RetentionResult {
  readonly deleted: string[];
  readonly kept: string[];
}

/**
 * Deletes the expired backups of `dir`. Corruption is judged by framing only (no checksum
 * pass over every file); a backup whose payload is damaged still counts as good here, and
 * `verifyBackup` is what finds it.
 */
export async function applyRetention(dir: string, policy: RetentionPolicy, now: Date): Promise<RetentionResult> {
  const entries = await listBackups(dir, { checksums: false });
  const deleted = expiredBackups(entries, policy, now.getTime());
  for (const id of deleted) await rm(backupFile(dir, id), { force: true });
  if (deleted.length > 0) await syncDir(dir);
  return { deleted, kept: entries.map((e) => e.id).filter((id) => !deleted.includes(id)) };
}
