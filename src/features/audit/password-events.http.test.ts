/**
 * The first administrator made by the setup link, a password reset asked for and completed
 * through the e-mailed link, and `siteward user set-password` are events written in the
 * transaction of their change; a password set this way records the sessions it ended. Never the
 * password, its hash, or the reset token. On SQLite and, with SITEWARD_TEST_PG, PostgreSQL.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { startSmtpCapture, type SmtpCapture } from '../../../test/helpers/smtp-capture.js';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { ensureSetupToken } from '../../auth/setup-token.js';
import { main } from '../../cli.js';
import type { AuditEvent } from '../../wire/audit.js';

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];
const FORM = {
  'content-type': 'application/x-www-form-urlencoded',
  origin: 'http://example.org',
  cookie: 'siteward_form=AAAAAAAAAAAAAAAAAAAAAAAA',
};

describe.each(stores)('audit events of setup, password resets and set-password on %s', (backend) => {
  const root = mkdtempSync(path.join(tmpdir(), 'siteward-password-events-'));
  const dataDir = path.join(root, 'data');
  const configFile = path.join(root, 'siteward.config.json');
  const mails: string[] = [];
  let smtp: SmtpCapture;
  let t: TestApp;
  let schema: PgSchema | null = null;

  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    smtp = await startSmtpCapture((mail) => mails.push(mail.data.replace(/=3D/g, '=').replace(/=\r?\n/g, '')));
    t = await createTestApp({
      dataDir,
      startJobs: false,
      env: { SITEWARD_TRUST_PROXY: '1', SITEWARD_SMTP_URL: smtp.url, ...(schema ? { SITEWARD_DATABASE_URL: schema.url } : {}) },
    });
    writeFileSync(configFile, JSON.stringify({ dataDir, homeUrl: 'http://example.org', ...(schema ? { databaseUrl: schema.url } : {}) }));
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await schema?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  const events = (action: string): Promise<AuditEvent[]> => t.store.auditLog.list({ action }, { limit: 100, offset: 0, order: 'asc' });

  it('records the first administrator created by the setup link, by whoever held the link', async () => {
    const token = (await ensureSetupToken(t.store))!;
    const body = new URLSearchParams({ token, login: 'founder', email: 'founder@example.org', password: 'long-enough-pw-1' }).toString();
    const done = await t.request({
      method: 'POST',
      path: '/setup',
      headers: { ...FORM, 'x-forwarded-for': '198.51.100.4', 'x-request-id': 'setup-1' },
      body,
    });
    expect(done.status).toBe(302);
    const created = (await events('user.created')).filter((e) => e.object?.name === 'founder');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      actor: { kind: 'anonymous' },
      client_ip: '198.51.100.4',
      request_id: 'setup-1',
      changes: { roles: { before: null, after: ['administrator'] }, password: { secret: true }, via: { before: null, after: 'setup' } },
    });
    expect(JSON.stringify(created)).not.toContain(token);
    expect(JSON.stringify(created)).not.toContain('long-enough-pw-1');
  });

  it('records a reset asked for and completed (never the token), and the sessions the new password ended', async () => {
    const rita = await t.loginAs('editor', { login: 'rita' });
    const asked = await t.request({
      method: 'POST',
      path: '/login/lost-password',
      headers: { ...FORM, 'x-forwarded-for': '198.51.100.5' },
      body: 'user_login=rita',
    });
    expect(asked.status).toBe(200);
    await vi.waitUntil(() => mails.length >= 1, { timeout: 20_000, interval: 10 });
    const link = /(\/login\/reset-password\?login=[^\s]+&key=([A-Za-z0-9_-]+))/.exec(mails[0]!)!;
    const key = link[2]!;
    // An unknown account changes nothing, so it records nothing.
    await t.request({ method: 'POST', path: '/login/lost-password', headers: FORM, body: 'user_login=nobody' });

    const saved = await t.request({
      method: 'POST',
      path: '/login/reset-password',
      headers: { ...FORM, 'x-forwarded-for': '198.51.100.6', 'x-request-id': 'reset-1' },
      body: `login=rita&key=${key}&password=brand-new-pw-2`,
    });
    expect(saved.status).toBe(302);

    const requested = await events('user.password_reset_requested');
    expect(requested.map((e) => [e.object?.name, e.actor.kind, e.client_ip])).toEqual([['rita', 'anonymous', '198.51.100.5']]);
    const reset = await events('user.password_reset');
    expect(reset).toHaveLength(1);
    expect(reset[0]).toMatchObject({
      actor: { kind: 'user', user_id: rita.userId, login: 'rita' },
      client_ip: '198.51.100.6',
      request_id: 'reset-1',
      object: { type: 'user', id: String(rita.userId) },
      changes: { password: { secret: true } },
    });
    const ended = (await events('session.ended')).filter((e) => e.object?.id === String(rita.userId));
    expect(ended.map((e) => [e.request_id, e.changes.sessions])).toEqual([['reset-1', { before: 1, after: 0 }]]);
    const all = JSON.stringify([...requested, ...reset, ...ended]);
    expect(all).not.toContain(key);
    expect(all).not.toContain('brand-new-pw-2');
  });

  it('records `siteward user set-password` as the OS user, with the sessions it ended', async () => {
    const sam = await t.loginAs('author', { login: 'sam' });
    // A second session (the JSON login), so the count is 2.
    const second = await t.request({ method: 'POST', path: '/login', body: { username: 'sam', password: sam.password } });
    expect(second.status).toBe(200);
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['user', 'set-password', 'sam', '--password', 'Brisk Otter Lamp 47', '--config', configFile], {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    });
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const mine = (
      await t.store.auditLog.list({ objectType: 'user', objectId: String(sam.userId) }, { limit: 10, offset: 0, order: 'asc' })
    ).filter((e) => e.actor.kind === 'cli');
    expect(mine.map((e) => [e.action, e.changes])).toEqual([
      ['user.password_changed', { password: { secret: true } }],
      ['session.ended', { sessions: { before: 2, after: 0 } }],
    ]);
    expect(mine[0]?.actor.credential.type).toBe('os_user');
    expect(JSON.stringify(mine)).not.toContain('Brisk Otter Lamp 47');
  });
});
