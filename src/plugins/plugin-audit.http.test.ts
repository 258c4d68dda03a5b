/**
 * `api.audit`: a plugin loaded as third-party plugins are records its own events, in the same
 * shape and hash chain as Siteward's (verify holds after them), with the request's actor when it
 * hands the request and as the job `plugin:<name>` when not; a name that is not
 * `plugin.<vendor>.<event>` or a malformed change is refused with a TypeError and writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../test/helpers/test-app.js';
import { auditKeys } from '../features/audit/signing.js';
import { verifyAuditLog } from '../features/audit/verify.js';
import type { AuditChange } from '../wire/audit.js';
import type { SitewardApi } from './api.js';

let refusals: string[] = [];

function formsPlugin(api: SitewardApi): void {
  api.registerRoute('acme-forms/v1', '/forms/(?P<id>\\d+)', {
    methods: 'DELETE',
    permissionCallback: (request) => request.user.can('manage_options'),
    callback: async (request) => {
      const id = String(request.params.id);
      await api.audit(
        'plugin.acme-forms.form_deleted',
        { type: 'acme_form', id, name: `Form ${id}` },
        { title: { before: `Form ${id}`, after: null }, api_key: { secret: true } },
        { request },
      );
      return { deleted: true };
    },
  });
  api.registerRoute('acme-forms/v1', '/misuse', {
    methods: 'POST',
    permissionCallback: () => true,
    callback: async (request) => {
      const body = request.params as { action: string; changes?: Record<string, AuditChange> };
      try {
        await api.audit(body.action, null, body.changes ?? {});
        return { written: true };
      } catch (error) {
        refusals.push(error instanceof TypeError ? error.message : 'other');
        return { written: false };
      }
    },
  });
  api.addJob({
    name: 'acme-forms-cleanup',
    everyMs: 3_600_000,
    run: () => api.audit('plugin.acme-forms.cleaned', null, { removed: { before: 3, after: 0 } }),
  });
}

describe('api.audit', () => {
  let t: TestApp;
  let admin: LoggedIn;

  beforeAll(async () => {
    t = await createTestApp({ plugins: [formsPlugin], startJobs: false });
    admin = await t.loginAs('administrator', { login: 'owner' });
  });
  afterAll(() => t.close());

  it("records a plugin's event with the request's actor, in the one verified chain", async () => {
    const res = await t.request({
      method: 'DELETE',
      path: '/wp-json/acme-forms/v1/forms/12',
      headers: { ...t.auth(admin), 'X-Request-Id': 'acme-1' },
    });
    expect(res.status).toBe(200);
    const [event, ...more] = await t.store.auditLog.list({ action: 'plugin.' }, { limit: 10, offset: 0, order: 'asc' });
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      action: 'plugin.acme-forms.form_deleted',
      result: 'ok',
      actor: { kind: 'user', login: 'owner', credential: { type: 'session' } },
      request_id: 'acme-1',
      object: { type: 'acme_form', id: '12', name: 'Form 12' },
      changes: { title: { before: 'Form 12', after: null }, api_key: { secret: true } },
    });
    const verified = await verifyAuditLog(t.store.auditLog, auditKeys(t.app.secrets.auditSigningSeed).publicKey);
    expect(verified.ok).toBe(true);
  });

  it('records a job of the plugin as the job plugin:<name>', async () => {
    await t.app.jobs.tick();
    const [cleaned] = await t.store.auditLog.list({ action: 'plugin.acme-forms.cleaned' }, { limit: 10, offset: 0, order: 'asc' });
    expect(cleaned?.actor).toMatchObject({ kind: 'job', job: 'plugin:formsPlugin', user_id: 0 });
  });

  it.each([
    ['a core action', 'user.created', {}],
    ['no event name', 'plugin.acme', {}],
    ['upper case', 'plugin.Acme.Deleted', {}],
    ['a change without before/after', 'plugin.acme.ok', { title: 'not a change' }],
    ['over 16 KB', 'plugin.acme.ok', { huge: { before: null, after: 'x'.repeat(20_000) } }],
  ])('refuses %s and writes nothing', async (_, action, changes) => {
    refusals = [];
    const before = await t.store.auditLog.count({});
    const res = await t.request({
      method: 'POST',
      path: '/wp-json/acme-forms/v1/misuse',
      headers: t.auth(admin),
      body: { action, changes },
    });
    expect(res.json).toEqual({ written: false });
    expect(refusals[0]).toMatch(/^api\.audit: /);
    expect(await t.store.auditLog.count({})).toBe(before);
  });
});
