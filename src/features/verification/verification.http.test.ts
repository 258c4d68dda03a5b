import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';

let app: TestApp;
let admin: LoggedIn;
beforeAll(async () => {
  app = await createTestApp();
  admin = await app.loginAs('administrator');
});
afterAll(() => app.close());

const setCodes = (body: Record<string, unknown>) =>
  app.request({ method: 'PUT', path: '/wp-json/jetpack/v4/module/verification-tools', headers: app.auth(admin), body });
const services = () => app.request({ path: '/wp-json/jetpack/v4/module/verification-tools/services', headers: app.auth(admin) });
const headTags = async () => {
  const home = (await app.request({ path: '/' })).text;
  const head = home.slice(0, home.indexOf('</head>'));
  return head.match(/<meta name="(?:google-site-verification|msvalidate\.01|p:domain_verify)"[^>]*>/g) ?? [];
};

describe('site verification', () => {
  it('answers empty and prints no tag before any code is set', async () => {
    const res = await services();
    expect([res.status, res.json]).toEqual([404, { code: 'empty', message: 'Site not verified with any service.', data: { status: 404 } }]);
    expect(await headTags()).toEqual([]);
  });

  it('prints exactly the configured tags in the home page head, and lists the services', async () => {
    expect((await setCodes({ google: 'g00gle-Code_1', pinterest: 'p1n' })).status).toBe(200);
    expect(await headTags()).toEqual([
      '<meta name="google-site-verification" content="g00gle-Code_1" />',
      '<meta name="p:domain_verify" content="p1n" />',
    ]);
    expect((await services()).json).toEqual({
      code: 'success',
      message: 'Your site is verified with Google and Pinterest.',
      services: ['Google', 'Pinterest'],
    });
    await setCodes({ bing: 'B1NG' });
    expect(await headTags()).toHaveLength(3);
    expect((await services()).json).toMatchObject({ message: 'Your site is verified with Google, Bing and Pinterest.' });
    await setCodes({ google: '', bing: '' });
    expect((await services()).json).toMatchObject({ message: 'Your site is verified with Pinterest.', services: ['Pinterest'] });
  });

  it.each(['"><script>alert(1)</script>', 'a b', 'code.with.dots', "o'neil", 'é'])(
    'refuses %j with 400 and the reference message, saving nothing',
    async (code) => {
      const res = await setCodes({ bing: code, google: 'fine' });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, params: { bing: 'bing must be an alphanumeric string.' } },
      });
      expect((await services()).json).toMatchObject({ services: ['Pinterest'] });
    },
  );

  it('escapes whatever the store holds, so nothing unescaped reaches the page', async () => {
    await app.store.options.set('verification_services_codes', { google: '"><script>x</script>', bing: '', pinterest: 'p1n' });
    const home = (await app.request({ path: '/' })).text;
    expect(home).not.toContain('<script>x');
    expect(await headTags()).toEqual([
      '<meta name="google-site-verification" content="&quot;&gt;&lt;script&gt;x&lt;/script&gt;" />',
      '<meta name="p:domain_verify" content="p1n" />',
    ]);
  });

  it('prints nothing and answers not_active while the module is off', async () => {
    await app.request({
      method: 'PUT',
      path: '/wp-json/jetpack/v4/module/verification-tools/active',
      headers: app.auth(admin),
      body: { active: false },
    });
    expect(await headTags()).toEqual([]);
    const res = await services();
    expect([res.status, (res.json as { code: string }).code]).toEqual([404, 'not_active']);
  });

  it('prints the verification meta tags of the active verification-tools module', async () => {
    // Earlier tests in this file leave the module off.
    await app.request({
      method: 'POST',
      path: '/wp-json/jetpack/v4/module/verification-tools/active',
      headers: app.auth(admin),
      body: { active: true },
    });
    const set = await app.request({
      method: 'POST',
      path: '/wp-json/jetpack/v4/module/verification-tools',
      headers: app.auth(admin),
      body: { google: 'abc-123_X', bing: 'B1NG' },
    });
    expect(set.status).toBe(200);
    const home = await app.request({ path: '/' });
    expect(home.text).toContain('<meta name="google-site-verification" content="abc-123_X" />');
    expect(home.text).toContain('<meta name="msvalidate.01" content="B1NG" />');
    await app.request({
      method: 'POST',
      path: '/wp-json/jetpack/v4/module/verification-tools/active',
      headers: app.auth(admin),
      body: { active: false },
    });
    expect((await app.request({ path: '/' })).text).not.toContain('google-site-verification');
  });
});
