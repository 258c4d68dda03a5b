/**
 * The verification of each backup, whoever ran it: `siteward backup verify <id>` and the
 * scheduled verification both record their result here, so `backup list` and the Backups screen
 * show a backup as verified however it was checked. One status row holds the latest result per
 * backup (the newest MAX_KEPT of them: older backups are pruned long before).
 */
import type { JsonValue } from '../../core/json.js';
import { isPlainObject } from '../../core/objects.js';
import type { StatusRepo } from '../../store/types.js';
import type { TargetKind } from './backup-target.js';

export const BACKUP_VERIFICATIONS_KEY = 'backups.verifications';
const MAX_KEPT = 500;

export interface BackupVerification {
  /** Milliseconds since the epoch. */
  readonly time: number;
  readonly ok: boolean;
  readonly message: string;
  /** `cli` (backup verify) or `schedule`. */
  readonly by: 'cli' | 'schedule';
}

export interface BackupAddress {
  readonly kind: TargetKind;
  readonly where: string;
  readonly id: string;
}

const keyOf = (backup: BackupAddress) => `${backup.kind}|${backup.where}|${backup.id}`;

export type BackupVerifications = ReadonlyMap<string, BackupVerification>;

export async function readVerifications(status: StatusRepo): Promise<BackupVerifications> {
  const value = (await status.get(BACKUP_VERIFICATIONS_KEY))?.value;
  const found = new Map<string, BackupVerification>();
  if (!isPlainObject(value)) return found;
  for (const [key, v] of Object.entries(value)) {
    if (!isPlainObject(v) || typeof v.time !== 'number' || typeof v.ok !== 'boolean' || typeof v.message !== 'string') continue;
    found.set(key, { time: v.time, ok: v.ok, message: v.message, by: v.by === 'cli' ? 'cli' : 'schedule' });
  }
  return found;
}

export function verificationOf(all: BackupVerifications, backup: BackupAddress): BackupVerification | null {
  return all.get(keyOf(backup)) ?? null;
}

/**
 * Records one result. A read-modify-write of one row: a CLI verify and a scheduled one finishing
 * in the same instant could lose one of the two records, which the next verification rewrites.
 */
export async function recordVerification(status: StatusRepo, backup: BackupAddress, result: BackupVerification): Promise<void> {
  const all = new Map(await readVerifications(status));
  all.delete(keyOf(backup));
  all.set(keyOf(backup), result);
  const kept = [...all.entries()].sort((a, b) => a[1].time - b[1].time).slice(-MAX_KEPT);
  const value: Record<string, JsonValue> = {};
  for (const [key, v] of kept) value[key] = { time: v.time, ok: v.ok, message: v.message, by: v.by };
  await status.set(BACKUP_VERIFICATIONS_KEY, value, result.time);
}
