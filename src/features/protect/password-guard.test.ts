import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureTestBackends } from '../db/testing/feature-db.js';
import { parseAllowList, type AllowEntry } from './allow-list.js';
import { PROTECT_MIGRATIONS } from './migration.js';
import { createPasswordGuard, type PasswordAttempt, type PasswordGuard } from './password-guard.js';
import { keyOf, ProtectPolicy } from './protect-policy.js';
import { slotOwner } from './slot-owner.js';
import type { FeatureDb } from '../db/feature-db.js';
import { spawnSync } from 'node:child_process';
import { KyselyProtectRepo } from './protect-repo.js';
import type { ProtectTables } from './protect-tables.js';

const T0 = Date.UTC(2024, 5, 1, 12);

describe.each(featureTestBackends(PROTECT_MIGRATIONS))('password guard on $name', (backend) => {
  let policy: ProtectPolicy;
  let db: FeatureDb<ProtectTables>;
  let now = T0;
  let allowList: readonly AllowEntry[] = [];
  let active = true;
  let guard: PasswordGuard;

  beforeAll(async () => {
    db = await backend.open<ProtectTables>();
    policy = new ProtectPolicy(new KyselyProtectRepo(db));
    guard = createPasswordGuard({ policy, clock: () => now, allowList: () => allowList, active: () => active });
  });
  afterAll(() => backend.cleanup());

  const attempt = (ip: string, via: PasswordAttempt['via'] = 'login-form'): PasswordAttempt => ({ via, login: 'admin', ip });

  async function failFiveTimes(ip: string): Promise<void> {
    for (let i = 0; i < 5; i++) {
      const verdict = await guard.before(attempt(ip));
      expect(verdict).toMatchObject({ allow: true });
      await guard.after(attempt(ip), { ok: false }, verdict.allow ? verdict.ticket : undefined);
      now += 1000;
    }
  }

  it('wants a challenge from the login form only, from the 3rd failure until the block, and never while blocked or allowed', async () => {
    const challenging = createPasswordGuard({
      policy,
      clock: () => now,
      allowList: () => allowList,
      active: () => active,
      challengeAfter: 3,
    });
    const ip = '192.0.2.40';
    const fail = async () => {
      const verdict = await challenging.before(attempt(ip));
      await challenging.after(attempt(ip), { ok: false }, verdict.allow ? verdict.ticket : undefined);
      now += 1000;
    };
    for (let i = 0; i < 2; i++) await fail();
    expect(await challenging.wantsChallenge(attempt(ip))).toBe(false);
    await fail();
    expect(await challenging.wantsChallenge(attempt(ip))).toBe(true);
    for (const via of ['login-json', 'basic', 'setup', 'two-factor'] as const)
      expect(await challenging.wantsChallenge(attempt(ip, via)), via).toBe(false);
    const listed = parseAllowList('192.0.2.40');
    if (!listed.ok) throw new Error('bad list');
    allowList = listed.entries;
    expect(await challenging.wantsChallenge(attempt(ip))).toBe(false);
    allowList = [];
    await fail();
    await fail();
    // Blocked now: the block answers (429), not a challenge.
    expect(await challenging.wantsChallenge(attempt(ip))).toBe(false);
    // At or above the blocking count the block comes first: no challenge step at all.
    const late = createPasswordGuard({ policy, clock: () => now, allowList: () => allowList, active: () => active, challengeAfter: 5 });
    const other = '192.0.2.41';
    for (let i = 0; i < 4; i++) {
      const verdict = await late.before(attempt(other));
      await late.after(attempt(other), { ok: false }, verdict.allow ? verdict.ticket : undefined);
    }
    expect(await late.wantsChallenge(attempt(other))).toBe(false);
  });

  it('refuses with 429 after five failures and counts the refused attempt', async () => {
    const ip = '192.0.2.10';
    await failFiveTimes(ip);
    const before = await policy.blockedCount();
    const decision = await guard.before(attempt(ip, 'basic'));
    expect(decision).toEqual({
      allow: false,
      status: 429,
      code: 'siteward_protect_blocked',
      message: 'Too many failed login attempts from your address. Try again in 15 minutes.',
      retryAfterSeconds: 899,
    });
    expect(await policy.blockedCount()).toBe(before + 1);
  });

  it('lets the address in again once the block is over', async () => {
    now += 15 * 60_000;
    expect(await guard.before(attempt('192.0.2.10'))).toMatchObject({ allow: true });
  });

  it('does not reset the count on a successful login', async () => {
    const ip = '192.0.2.11';
    for (let i = 0; i < 4; i++) await guard.after(attempt(ip), { ok: false });
    expect(await guard.after(attempt(ip), { ok: true })).toEqual({ recorded: false, why: 'success' });
    expect(await guard.after(attempt(ip), { ok: false })).toMatchObject({ recorded: true, outcome: { kind: 'blocked' } });
  });

  it('never blocks or counts an allow-listed address', async () => {
    const parsed = parseAllowList('192.0.2.100 - 192.0.2.120');
    if (!parsed.ok) throw new Error('bad list');
    allowList = parsed.entries;
    const ip = '192.0.2.110';
    for (let i = 0; i < 6; i++) expect(await guard.after(attempt(ip), { ok: false })).toEqual({ recorded: false, why: 'allowed' });
    expect(await guard.before(attempt(ip))).toMatchObject({ allow: true });
    // Even an address blocked before it was allow-listed gets in.
    allowList = [];
    await failFiveTimes('192.0.2.111');
    allowList = parsed.entries;
    expect(await guard.before(attempt('192.0.2.111'))).toMatchObject({ allow: true });
    allowList = [];
  });

  it('does nothing while the protect module is inactive', async () => {
    active = false;
    const ip = '192.0.2.12';
    for (let i = 0; i < 6; i++) await guard.after(attempt(ip), { ok: false });
    expect(await guard.before(attempt(ip))).toMatchObject({ allow: true });
    active = true;
    expect(await guard.before(attempt(ip))).toMatchObject({ allow: true });
  });

  it('counts attempts before their passwords are checked: with five checks running, a sixth is refused', async () => {
    const ip = '192.0.2.14';
    const running = await Promise.all(Array.from({ length: 5 }, () => guard.before(attempt(ip))));
    expect(running.every((v) => v.allow && typeof v.ticket === 'number')).toBe(true);
    expect(await guard.before(attempt(ip))).toMatchObject({ allow: false, status: 429, retryAfterSeconds: 5 });
    // One check succeeds: its slot is free again; the other four fail and, with the next, block.
    await guard.after(attempt(ip), { ok: true }, running[0]!.allow ? running[0]!.ticket : undefined);
    for (const v of running.slice(1)) await guard.after(attempt(ip), { ok: false }, v.allow ? v.ticket : undefined);
    const fifth = await guard.before(attempt(ip));
    expect(fifth).toMatchObject({ allow: true });
    expect(await guard.after(attempt(ip), { ok: false }, fifth.allow ? fifth.ticket : undefined)).toMatchObject({
      recorded: true,
      outcome: { kind: 'blocked' },
    });
    expect(await guard.before(attempt(ip))).toMatchObject({ allow: false, message: expect.stringContaining('15 minutes') });
  });

  it('lets a sixth attempt wait for the slot a running check gives back, instead of refusing it', async () => {
    const ip = '192.0.2.15';
    const running = await Promise.all(Array.from({ length: 5 }, () => guard.before(attempt(ip))));
    const sixth = guard.before(attempt(ip));
    await new Promise((r) => setTimeout(r, 50));
    // A right password: its slot goes to the one waiting.
    await guard.after(attempt(ip), { ok: true }, running[0]!.allow ? running[0]!.ticket : undefined);
    const verdict = await sixth;
    expect(verdict).toMatchObject({ allow: true });
    for (const v of [...running.slice(1), verdict]) await guard.after(attempt(ip), { ok: true }, v.allow ? v.ticket : undefined);
  });

  it('stops counting at once the slots of a process that died mid-check, not those of a live one', async () => {
    const ip = '192.0.2.16';
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout.trim());
    const [host] = slotOwner().split('#');
    const slots = (owner: string) =>
      db.run((d) =>
        d
          .insertInto('protect_attempts')
          .values(Array.from({ length: 5 }, () => ({ key: keyOf(ip), at: now, owner })))
          .execute(),
      );
    await slots(`${host}#${deadPid}#1`);
    const verdict = await guard.before(attempt(ip, 'basic'));
    expect(verdict).toMatchObject({ allow: true });
    await guard.after(attempt(ip, 'basic'), { ok: true }, verdict.allow ? verdict.ticket : undefined);
    // A live holder (this process, on another host: unknown) keeps its slots until they are given back or expire.
    const other = '192.0.2.17';
    await db.run((d) =>
      d
        .insertInto('protect_attempts')
        .values(Array.from({ length: 5 }, () => ({ key: keyOf(other), at: now, owner: `another-host#${deadPid}#1` })))
        .execute(),
    );
    const quick = createPasswordGuard({ policy, clock: () => now, allowList: () => allowList, active: () => active, busyWaitMs: 30 });
    expect(await quick.before(attempt(other, 'basic'))).toMatchObject({ allow: false, status: 429 });
  });

  it('speaks of hours during a long block', async () => {
    const ip = '192.0.2.13';
    for (let round = 0; round < 4; round++) {
      await failFiveTimes(ip);
      if (round < 3) now += 16 * 60_000;
    }
    const decision = await guard.before(attempt(ip, 'setup'));
    expect(decision).toMatchObject({ allow: false, message: 'Too many failed login attempts from your address. Try again in 24 hours.' });
  });
});
