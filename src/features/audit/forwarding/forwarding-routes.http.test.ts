/**
 * What the Activity screen and operators see of forwarding: `GET siteward/v1/audit/forwarding`
 * (administrators only, targets without credentials) and `/healthz?detail=1` (public: no
 * target, no error text), with a webhook sink configured and nothing sent yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../../test/helpers/test-app.js';
import type { ForwardStatus } from './forwarder.js';

describe('audit forwarding status', () => {
  let t: TestApp;
  let admin: LoggedIn;
  let editor: LoggedIn;
  beforeAll(async () => {
    t = await createTestApp({
      startJobs: false,
      env: { SITEWARD_AUDIT_WEBHOOK_URL: 'https://hooks:secret@hooks.example.org/audit?token=abc', SITEWARD_AUDIT_WEBHOOK_FORMAT: 'slack' },
    });
    admin = await t.loginAs('administrator', { login: 'root' });
    editor = await t.loginAs('editor', { login: 'ed' });
  });
  afterAll(() => t.close());

  it('lists each sink with its backlog for administrators, without secrets', async () => {
    expect((await t.request({ path: '/wp-json/siteward/v1/audit/forwarding', headers: t.auth(editor) })).status).toBe(403);
    const res = await t.request({ path: '/wp-json/siteward/v1/audit/forwarding', headers: t.auth(admin) });
    expect(res.status).toBe(200);
    const [webhook, ...others] = res.json as ForwardStatus[];
    expect(others).toEqual([]);
    const head = (await t.store.auditLog.head()).lastId;
    expect(webhook).toEqual({
      sink: 'webhook',
      kind: 'webhook-slack',
      target: 'https://hooks.example.org/audit',
      backlog: head,
      last_delivered_id: 0,
      last_error: null,
      last_error_at: null,
      last_success_at: null,
      next_attempt_at: null,
      failing_since: null,
      holds_retention: true,
    });
  });

  it('shows the backlog in /healthz?detail=1, and /healthz alone stays short', async () => {
    expect((await t.request({ path: '/healthz' })).json).toEqual({ status: 'ok', store: 'sqlite' });
    const detail = await t.request({ path: '/healthz?detail=1' });
    expect(detail.status).toBe(200);
    expect(detail.json).toMatchObject({
      status: 'ok',
      audit_forwarding: [
        { sink: 'webhook', kind: 'webhook-slack', failing: false, last_error_at: null, failing_since: null, holds_retention: true },
      ],
    });
    expect(detail.text).not.toMatch(/secret|hooks\.example/);
  });
});
