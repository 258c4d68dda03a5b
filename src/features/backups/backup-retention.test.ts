import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { writeBackupFile } from './backup-file.js';
import { newBackupId } from './backup-manifest.js';
import { applyRetention, expiredBackups, retentionDecisions } from './backup-retention.js';
import { localTarget } from './backup-target.js';
import type { BackupListEntry } from './backups.js';

const DAY = 86_400_000;
const NOW = Date.parse('2024-06-30T12:00:00Z');
const STORE = '00000000-0000-4000-8000-000000000003';

function entry(daysAgo: number, status: 'ok' | 'corrupt' = 'ok'): BackupListEntry {
  const time = new Date(NOW - daysAgo * DAY);
  return { id: `d${daysAgo}`, time, size: 1, status, backend: 'sqlite', storeId: STORE, encrypted: false };
}

describe('backup retention', () => {
  const policy = { keepCount: 3, maxAgeDays: 14 };

  it('keeps the newest keepCount good backups and expires the rest', () => {
    const entries = [0, 1, 2, 3, 4].map((d) => entry(d));
    expect(expiredBackups(entries, policy, NOW)).toEqual(['d3', 'd4']);
  });

  it('expires backups older than maxAgeDays, but not one exactly that old', () => {
    const entries = [entry(0), entry(14), entry(14.5)];
    expect(expiredBackups(entries, policy, NOW)).toEqual(['d14.5']);
  });

  it('never expires the newest good backup, however old', () => {
    expect(expiredBackups([entry(40), entry(50), entry(3, 'corrupt')], policy, NOW)).toEqual(['d50']);
  });

  it('does not let corrupt backups take a place in the count; they expire by age', () => {
    const entries = [entry(0, 'corrupt'), entry(1), entry(2), entry(3), entry(4), entry(20, 'corrupt')];
    expect(expiredBackups(entries, policy, NOW)).toEqual(['d4', 'd20']);
  });

  it('keeps the newest backup of each of the last N days, ISO weeks and months, like restic forget', () => {
    // Two backups a day for 70 days, newest first at NOW (a Sunday).
    const entries = Array.from({ length: 140 }, (_, i) => entry(i / 2));
    const decisions = retentionDecisions(entries, { keepCount: 1, maxAgeDays: 1, keepDaily: 3, keepWeekly: 2, keepMonthly: 3 }, NOW);
    const kept = decisions.filter((d) => d.keptBy.length > 0).map((d) => `${d.id}:${d.keptBy.join('+')}`);
    expect(kept).toEqual([
      'd0:newest+last+daily+weekly+monthly', // Sun 30 June: today, this week, this month
      'd1:daily', // 29 June
      'd2:daily', // 28 June
      'd7:weekly', // Sun 23 June: the newest of the week before
      'd30:monthly', // 31 May
      'd61:monthly', // 30 April
    ]);
    expect(expiredBackups(entries, { keepCount: 1, maxAgeDays: 1, keepDaily: 3, keepWeekly: 2, keepMonthly: 3 }, NOW)).toHaveLength(134);
  });

  it('refuses a policy that would keep nothing', () => {
    expect(() => expiredBackups([], { keepCount: 0, maxAgeDays: 14 }, NOW)).toThrow(/keepCount/);
    expect(() => expiredBackups([], { keepCount: 1, maxAgeDays: 0 }, NOW)).toThrow(/maxAgeDays/);
  });

  const dir = mkdtempSync(join(tmpdir(), 'siteward-retention-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('deletes exactly the expired backup files of a directory', async () => {
    const ids: string[] = [];
    for (const daysAgo of [0, 1, 2, 3, 20]) {
      const id = newBackupId(new Date(NOW - daysAgo * DAY));
      ids.push(id);
      await writeBackupFile(join(dir, STORE), id, Readable.from([Buffer.from('x')]), (digest) => ({
        format: 'siteward-backup',
        formatVersion: 1,
        id,
        time: new Date(NOW - daysAgo * DAY).toISOString(),
        backend: 'sqlite',
        schemaVersion: ['0001_initial'],
        tables: [],
        storeId: STORE,
        ...digest,
      }));
    }
    const result = await applyRetention(localTarget(dir), STORE, policy, new Date(NOW));
    expect(result.deleted.sort()).toEqual([ids[3], ids[4]].sort());
    expect((await readdir(join(dir, STORE))).sort()).toEqual(
      ids
        .slice(0, 3)
        .map((id) => `${id}.swbak`)
        .sort(),
    );
  });
});
