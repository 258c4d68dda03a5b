/**
 * Retention in the manner of restic's `forget`: a good backup stays when any rule keeps it —
 * one of the `keepLast` newest (if not older than `maxAgeDays`), or the newest backup of one of
 * the last `keepDaily` days, `keepWeekly` ISO weeks or `keepMonthly` months that have backups
 * (calendar periods in UTC). Applied to each target separately: a bucket keeps its own history
 * even when the local directory lost files, and the other way round.
 */
import { listBackups, type BackupListEntry } from './backups.js';
import { DAY_MS } from '../../core/time.js';
import type { BackupTarget } from './backup-target.js';

export interface RetentionPolicy {
  /** The newest this many good backups stay (≥ 1) … */
  readonly keepCount: number;
  /** … unless older than this many days (> 0). */
  readonly maxAgeDays: number;
  /** The newest backup of each of the last N days with backups stays, however old. Default 0. */
  readonly keepDaily?: number;
  readonly keepWeekly?: number;
  readonly keepMonthly?: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { keepCount: 14, maxAgeDays: 14 };

const dayOf = (t: Date) => t.toISOString().slice(0, 10);
const monthOf = (t: Date) => t.toISOString().slice(0, 7);
/** ISO 8601 week (`2024-W26`), so a week is Monday to Sunday as restic counts it. */
function weekOf(t: Date): string {
  const d = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
  const weekday = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / DAY_MS + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

function checkPolicy(policy: RetentionPolicy): void {
  if (!Number.isInteger(policy.keepCount) || policy.keepCount < 1)
    throw new RangeError(`keepCount must be an integer ≥ 1 (got ${policy.keepCount})`);
  if (!(policy.maxAgeDays > 0)) throw new RangeError(`maxAgeDays must be > 0 (got ${policy.maxAgeDays})`);
  for (const key of ['keepDaily', 'keepWeekly', 'keepMonthly'] as const) {
    const n = policy[key] ?? 0;
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`${key} must be an integer ≥ 0 (got ${n})`);
  }
}

export interface RetentionDecision {
  readonly id: string;
  /** Why it stays (`last`, `daily`, `weekly`, `monthly`, `newest`), or null: it goes. */
  readonly keptBy: readonly string[];
}

/** Every backup with the rules that keep it, newest first. */
export function retentionDecisions(entries: readonly BackupListEntry[], policy: RetentionPolicy, now: number): RetentionDecision[] {
  checkPolicy(policy);
  const maxAgeMs = policy.maxAgeDays * DAY_MS;
  const newestFirst = [...entries].sort((a, b) => b.time.getTime() - a.time.getTime() || (a.id < b.id ? 1 : -1));
  const reasons = new Map<string, string[]>(newestFirst.map((e) => [e.id, []]));
  const good = newestFirst.filter((e) => e.status === 'ok');
  // The newest good backup never goes: if backups stop working for a while, the last good one must survive.
  if (good.length > 0) reasons.get(good[0].id)?.push('newest');
  good.forEach((e, rank) => {
    if (rank < policy.keepCount && now - e.time.getTime() <= maxAgeMs) reasons.get(e.id)?.push('last');
  });
  const buckets: [string, number, (t: Date) => string][] = [
    ['daily', policy.keepDaily ?? 0, dayOf],
    ['weekly', policy.keepWeekly ?? 0, weekOf],
    ['monthly', policy.keepMonthly ?? 0, monthOf],
  ];
  for (const [rule, count, period] of buckets) {
    const seen = new Set<string>();
    for (const e of good) {
      if (seen.size >= count) break;
      const p = period(e.time);
      if (seen.has(p)) continue;
      seen.add(p);
      reasons.get(e.id)?.push(rule);
    }
  }
  // Corrupt backups take no place in any rule and go by age only, so they stay around long enough to be looked at.
  for (const e of newestFirst)
    if (e.status !== 'ok' && now - e.time.getTime() <= maxAgeMs) reasons.get(e.id)?.push('corrupt, kept for a look');
  return newestFirst.map((e) => ({ id: e.id, keptBy: reasons.get(e.id) ?? [] }));
}

/** The ids that no rule keeps, in the entries' order. */
export function expiredBackups(entries: readonly BackupListEntry[], policy: RetentionPolicy, now: number): string[] {
  const gone = new Set(
    retentionDecisions(entries, policy, now)
      .filter((d) => d.keptBy.length === 0)
      .map((d) => d.id),
  );
  return entries.filter((e) => gone.has(e.id)).map((e) => e.id);
}

export interface RetentionResult {
  readonly deleted: string[];
  readonly kept: string[];
  readonly decisions: RetentionDecision[];
}

/**
 * Deletes one store's expired backups in one target (`dryRun`: only says which). Corruption is
 * judged by framing only (no checksum pass over every file); a backup whose payload is damaged
 * still counts as good here, and `verifyBackup` is what finds it.
 */
export async function applyRetention(
  target: BackupTarget,
  storeId: string,
  policy: RetentionPolicy,
  now: Date,
  options: { readonly dryRun?: boolean } = {},
): Promise<RetentionResult> {
  const entries = await listBackups(target, storeId, { checksums: false });
  const decisions = retentionDecisions(entries, policy, now.getTime());
  const deleted = entries.filter((e) => decisions.some((d) => d.id === e.id && d.keptBy.length === 0)).map((e) => e.id);
  if (options.dryRun !== true) for (const id of deleted) await target.remove(storeId, id);
  return { deleted, kept: entries.map((e) => e.id).filter((id) => !deleted.includes(id)), decisions };
}
