import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import type { SitewardApi } from '../../plugins/api.js';
import { RestError } from '../../rest/errors.js';

const notes = new Map<string, string>();

function notesPlugin(api: SitewardApi): void {
  api.registerField('jetpack_module', 'team_note', {
    // Records of module/all carry `module`; the single-module record does not, its slug is in the URL.
    get: (record, _attribute, request) => notes.get(String(record.module ?? request?.params.slug)) ?? '',
    update: (value, object) => {
      if (typeof value !== 'string') return new RestError('bad_note', 'team_note must be a string.', { status: 400 });
      notes.set((object as { slug: string }).slug, value);
      return true;
    },
    schema: { type: 'string', description: 'A note for the team' },
  });
  api.registerField('jetpack_module', 'read_only_badge', { get: () => 'badge' });
  api.registerField('jetpack_module', 'write_only', { update: () => true });
}

let app: TestApp;
let admin: LoggedIn;
beforeAll(async () => {
  app = await createTestApp({ plugins: [notesPlugin] });
  admin = await app.loginAs('administrator');
});
afterAll(() => app.close());

describe('extra fields on module records (docs/spec/site-management-api.md §2.6)', () => {
  it('adds fields with a getter to every record of module/all, and not those without', async () => {
    const res = await app.request({ path: '/wp-json/jetpack/v4/module/all', headers: app.auth(admin) });
    const protect = (res.json as Record<string, Record<string, unknown>>).protect!;
    expect(protect.team_note).toBe('');
    expect(protect.read_only_badge).toBe('badge');
    expect(protect).not.toHaveProperty('write_only');
  });

  it('sets a field through its updater and returns it afterwards', async () => {
    const set = await app.request({
      method: 'POST',
      path: '/wp-json/jetpack/v4/module/protect',
      headers: app.auth(admin),
      body: { team_note: 'keep on' },
    });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({ code: 'success', message: 'The requested Jetpack module was updated.' });
    const one = await app.request({ path: '/wp-json/jetpack/v4/module/protect', headers: app.auth(admin) });
    expect((one.json as Record<string, unknown>).team_note).toBe('keep on');
  });

  it('passes an updater’s error through', async () => {
    const res = await app.request({
      method: 'POST',
      path: '/wp-json/jetpack/v4/module/protect',
      headers: app.auth(admin),
      body: { team_note: 5 },
    });
    expect(res.status).toBe(400);
    expect((res.json as { code: string }).code).toBe('bad_note');
  });

  it('refuses to set a field without updater like any unknown key', async () => {
    const res = await app.request({
      method: 'POST',
      path: '/wp-json/jetpack/v4/module/protect',
      headers: app.auth(admin),
      body: { read_only_badge: 'x' },
    });
    expect(res.status).toBe(400);
    expect((res.json as { code: string }).code).toBe('some_updated');
  });
});
