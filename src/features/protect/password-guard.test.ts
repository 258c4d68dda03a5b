import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureTestBackends } from '../db/test-feature-db.js';
import { parseAllowList, type AllowEntry } from './allow-list.js';
import { PROTECT_MIGRATION_NAME, protectMigration } from './migration.js';
import { createPasswordGuard, type PasswordAttempt, type PasswordGuard } from './password-guard.js';
import { ProtectPolicy } from './protect-policy.js';
import { KyselyProtectRepo } from './protect-repo.js';
import type { ProtectTables } from './protect-tables.js';

const T0 = Date.UTC(2024, 5, 1, 12);

describe.each(featureTestBackends({ [PROTECT_MIGRATION_NAME]: protectMigration }))('password guard on $name', (backend) => {
  let policy: ProtectPolicy;
  let now = T0;
  let allowList: readonly AllowEntry[] = [];
  let active = true;
  let guard: PasswordGuard;

  beforeAll(async () => {
    policy = new ProtectPolicy(new KyselyProtectRepo(await backend.open<ProtectTables>()));
    guard = createPasswordGuard({ policy, clock: () => now, allowList: () => allowList, active: () => active });
  });
  afterAll(() => backend.cleanup());

  const attempt = (ip: string, via: PasswordAttempt['via'] = 'login-form'): PasswordAttempt => ({ via, login: 'admin', ip });

  async function failFiveTimes(ip: string): Promise<void> {
    for (let i = 0; i < 5; i++) {
      expect(await guard.before(attempt(ip))).toEqual({ allow: true });
      await guard.after(attempt(ip), { ok: false });
      now += 1000;
    }
  }

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
    expect(await guard.before(attempt('192.0.2.10'))).toEqual({ allow: true });
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
    expect(await guard.before(attempt(ip))).toEqual({ allow: true });
    // Even an address blocked before it was allow-listed gets in.
    allowList = [];
    await failFiveTimes('192.0.2.111');
    allowList = parsed.entries;
    expect(await guard.before(attempt('192.0.2.111'))).toEqual({ allow: true });
    allowList = [];
  });

  it('does nothing while the protect module is inactive', async () => {
    active = false;
    const ip = '192.0.2.12';
    for (let i = 0; i < 6; i++) await guard.after(attempt(ip), { ok: false });
    expect(await guard.before(attempt(ip))).toEqual({ allow: true });
    active = true;
    expect(await guard.before(attempt(ip))).toEqual({ allow: true });
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
