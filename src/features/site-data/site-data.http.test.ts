import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import type { Feature, FeatureContext, FeatureServices } from '../contract.js';
import { builtInFeatures } from '../index.js';
import { call, permissionBody } from '../jetpack-v4/testing/http-client.js';

let connected = false;
/** The real connection feature, with `isConnected` switched by the test (the only part `/site` reads). */
const realConnection = builtInFeatures.find((f) => f.name === 'connection')!;
const switchableConnection: Feature = {
  name: 'connection',
  register: (ctx) =>
    realConnection.register({
      ...ctx,
      provide: ((key, value) => {
        const switched =
          key === 'connection' ? { ...(value as FeatureServices['connection']), isConnected: () => Promise.resolve(connected) } : value;
        ctx.provide(key, switched as never);
      }) as FeatureContext['provide'],
    }),
};
const features = builtInFeatures.map((f) => (f.name === 'connection' ? switchableConnection : f));

let apps: TestApp[] = [];
afterEach(async () => {
  connected = false;
  await Promise.all(apps.map((a) => a.close()));
  apps = [];
});

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({
    env: { SITEWARD_SITE_NAME: 'Field Notes', SITEWARD_TIMEZONE: 'Europe/Paris', SITEWARD_LOCALE: 'de_DE', ...env },
    features,
    startJobs: false,
  });
  apps.push(t);
  return t;
}

describe('GET site', () => {
  it('is 401 anonymous and, in dev mode, 403 for a subscriber', async () => {
    const t = await app();
    expect((await call(t, 'GET', '/site')).json).toEqual(permissionBody('invalid_user_permission_view_admin', 401));
    const offline = await app({ SITEWARD_OFFLINE: '1' });
    expect((await call(offline, 'GET', '/site', { as: await offline.loginAs('subscriber') })).json).toEqual(
      permissionBody('invalid_user_permission_view_admin', 403),
    );
  });

  it('is 404 site_id_missing while the site is not connected', async () => {
    const t = await app();
    const res = await call(t, 'GET', '/site', { as: await t.loginAs('administrator') });
    expect([res.status, res.json]).toEqual([
      404,
      { code: 'site_id_missing', message: 'The ID of this site does not exist.', data: { status: 404 } },
    ]);
  });

  it('answers the site record as a JSON string once connected, with the free plan', async () => {
    connected = true;
    const t = await app();
    await t.store.options.set('blogdescription', 'Notes from the field');
    const admin = await t.loginAs('administrator');
    const res = await call(t, 'GET', '/site', { as: admin });
    const body = res.json as { code: string; message: string; data: string };
    expect([res.status, body.code, body.message, typeof body.data]).toEqual([200, 'success', 'Site data correctly received.', 'string']);
    expect(JSON.parse(body.data)).toEqual({
      name: 'Field Notes',
      description: 'Notes from the field',
      URL: 'http://example.org',
      urls: { home: 'http://example.org', rest: 'http://example.org/wp-json/', admin: 'http://example.org/admin/' },
      locale: 'de_DE',
      timezone: 'Europe/Paris',
      plan: {
        product_id: 2002,
        product_slug: 'jetpack_free',
        product_name_short: 'Free',
        free_trial: false,
        expired: false,
        user_is_owner: true,
      },
    });
    const author = await t.loginAs('author');
    const asAuthor = JSON.parse(((await call(t, 'GET', '/site', { as: author })).json as { data: string }).data) as {
      plan: { user_is_owner: boolean };
    };
    expect(asAuthor.plan.user_is_owner).toBe(false);
  });
});
