/**
 * Audit alerts to a real SMTP server and a real webhook receiver on 127.0.0.1: the default
 * actions (a promotion to administrator, two-factor turned off), one digest a minute at most
 * (the clock is injected), history never mailed when alerts are turned on, a failed digest sent
 * again later.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { startSmtpCapture, type SmtpCapture } from '../../../test/helpers/smtp-capture.js';
import { featureMigrations } from '../../compose.js';
import { openStore, type Store } from '../../store/index.js';
import type { AuditEventInput } from '../../wire/audit.js';
import { featureDb } from '../db/feature-db.js';
import { builtInFeatures } from '../index.js';
import { smtpMailer } from '../mailer.js';
import { Alerter, alertRules } from './alerts.js';
import type { ForwardTables } from './forwarding/forwarder.js';
import { auditInput } from '../../../test/helpers/audit-event.js';

function event(action: string, changes: AuditEventInput['changes'] = {}): AuditEventInput {
  return auditInput({ action, client_ip: '198.51.100.4', object: { type: 'user', id: '7', name: 'mallory' }, changes });
}

const backends = [{ name: 'sqlite' as const }, ...(process.env.SITEWARD_TEST_PG ? [{ name: 'postgres' as const }] : [])];

describe.each(backends)('audit alerts on $name', ({ name }) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'siteward-alerts-'));
  let store: Store;
  let schema: PgSchema | null = null;
  let smtp: SmtpCapture;
  let http: Server;
  let hookUrl = '';
  let failHook = false;
  const hooks: { text: string }[] = [];

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    http = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (failHook) return void res.writeHead(503).end();
        hooks.push(JSON.parse(body) as { text: string });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(http.address() as { port: number }).port}/alerts`;
    schema = name === 'postgres' ? await freshPgSchema() : null;
    store = await openStore({
      dataDir: path.join(dir, 'data'),
      migrations: featureMigrations(builtInFeatures),
      ...(schema && { databaseUrl: schema.url }),
    });
  });
  afterAll(async () => {
    await store.close();
    await schema?.drop();
    await smtp.close();
    http.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('mails and posts one digest of the chosen actions, at most one a minute', async () => {
    const alerter = new Alerter({
      log: store.auditLog,
      db: featureDb<ForwardTables>(store),
      rules: alertRules([]),
      site: 'https://example.org',
      mailer: smtpMailer({ smtpUrl: smtp.url, mailFrom: 'siteward@example.org' }),
      recipients: () => Promise.resolve(['admin@example.org']),
      webhook: { url: hookUrl, format: 'slack' },
    });
    // History before alerts were on is never sent.
    await store.auditLog.append([event('two_factor.disabled')]);
    const t0 = 1_900_000_000_000;
    expect(await alerter.runOnce(t0)).toBe(0);

    await store.auditLog.append([
      event('user.role_changed', { roles: { before: ['subscriber'], after: ['administrator'] } }),
      event('user.role_changed', { roles: { before: ['subscriber'], after: ['editor'] } }),
      event('module.activated'),
      event('two_factor.disabled'),
    ]);
    expect(await alerter.runOnce(t0 + 10_000)).toBe(2);
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]!.to).toEqual(['admin@example.org']);
    expect(smtp.mails[0]!.data).toContain('Subject: https://example.org: 2 audit alerts');
    expect(smtp.mails[0]!.data).toMatch(/user\.role_changed user mallory by root \(#1\) from 198\.51\.100\.4: ok/);
    expect(smtp.mails[0]!.data).toContain('two_factor.disabled');
    expect(smtp.mails[0]!.data).not.toContain('module.activated');
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.text).toMatch(/^\*https:\/\/example\.org: 2 audit alerts\*\n#\d+ .*user\.role_changed/);

    // Within the minute: held back, then sent as one digest.
    await store.auditLog.append([event('backup.restored'), event('two_factor.disabled')]);
    expect(await alerter.runOnce(t0 + 40_000)).toBe(0);
    expect(smtp.mails).toHaveLength(1);
    expect(await alerter.runOnce(t0 + 70_000)).toBe(2);
    expect(smtp.mails).toHaveLength(2);
    expect(hooks).toHaveLength(2);

    // A receiver that fails: the digest is kept and sent again after the back-off.
    failHook = true;
    await store.auditLog.append([event('audit.verify_failed')]);
    await expect(alerter.runOnce(t0 + 140_000)).rejects.toThrow(/webhook: alert webhook answered HTTP 503/);
    failHook = false;
    expect(await alerter.runOnce(t0 + 142_000)).toBe(0); // not due yet (5 s back-off)
    expect(await alerter.runOnce(t0 + 145_000)).toBe(1);
    expect(hooks.at(-1)!.text).toContain('audit.verify_failed');
  });

  it('reads the setting: prefixes, values, and none', () => {
    expect(alertRules(['none'])).toEqual([]);
    expect(alertRules(['module.*', 'user.role_changed:editor'])).toEqual([
      { action: 'module.', prefix: true, value: null },
      { action: 'user.role_changed', prefix: false, value: 'editor' },
    ]);
  });
});
