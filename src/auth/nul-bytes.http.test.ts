import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../test/helpers/pg-schema.js';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(stores)('credentials carrying a NUL byte on %s', (backend) => {
  let app: TestApp;
  let schema: PgSchema | null = null;
  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    app = await createTestApp({ env: schema ? { SITEWARD_DATABASE_URL: schema.url } : {} });
    await app.app.users.create({ login: 'ann', email: 'ann@example.org', role: 'administrator', password: 'ann-password-1' });
  });
  afterAll(async () => {
    await app.close();
    await schema?.drop();
  });

  it('refuses a JSON login whose name holds a NUL as wrong credentials', async () => {
    const res = await app.request({ method: 'POST', path: '/login', body: { username: 'an\u0000n', password: 'ann-password-1' } });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: 'invalid_login' });
  });

  it('refuses a login form whose name or e-mail holds a NUL', async () => {
    for (const log of ['an%00n', 'ann%00%40example.org']) {
      const res = await app.request({
        method: 'POST',
        path: '/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org' },
        body: `log=${log}&pwd=x`,
      });
      expect(res.status).toBe(401);
    }
  });

  it('refuses a Basic user name holding a NUL with 401', async () => {
    const basic = Buffer.from('an\u0000n:abcd efgh ijkl mnop qrst uvwx').toString('base64');
    const res = await app.request({ path: '/wp-json/', headers: { authorization: `Basic ${basic}` } });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: 'invalid_username' });
  });

  it('treats a login cookie with a NUL in any field as no login at all', async () => {
    const cookie = `siteward_logged_in=${encodeURIComponent(`an\u0000n|4102444800|tok\u0000en|${'a'.repeat(64)}`)}`;
    const res = await app.request({ path: '/wp-json/', headers: { cookie } });
    expect(res.status).toBe(200);
    const logout = await app.request({
      method: 'POST',
      path: '/logout',
      headers: { cookie, 'content-type': 'application/json', origin: 'http://example.org' },
      body: '{}',
    });
    expect(logout.status).toBe(200);
  });
});
