/**
 * Every paged route (found from the REST index: a GET endpoint with `page`, `per_page` or
 * `offset`) answers bad paging input with a clear 400 (`rest_invalid_param`, or WordPress's own
 * page-past-the-last code), never a 5xx, on both stores: huge, negative, fractional, non-numeric.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../test/helpers/pg-schema.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../test/helpers/test-app.js';

const stores = process.env.SITEWARD_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];
const PAGING = ['page', 'per_page', 'offset'] as const;
const BAD_VALUES = [
  '99999999999999999999',
  '9223372036854775807',
  '9007199254740993',
  '1e20',
  '1e400',
  '-1',
  '-99999999999999999999',
  '0',
  '1.5',
  '-0.5',
  'abc',
  '',
  'NaN',
  'Infinity',
  '0x10',
  '%00',
  '1%20or%201',
];

interface IndexRoute {
  endpoints: { methods: string[]; args: Record<string, unknown> }[];
}

/** WordPress's abilities and categories lists slice past their end (`array_slice`): 200 with an empty page, no error. */
const EMPTY_PAST_THE_END = new Set(['/wp-abilities/v1/abilities', '/wp-abilities/v1/categories']);

describe.each(stores)('paged routes given bad paging input on %s', (backend) => {
  let app: TestApp;
  let schema: PgSchema | null = null;
  let admin: LoggedIn;
  let paged: { route: string; args: string[] }[] = [];

  beforeAll(async () => {
    if (backend === 'postgres') schema = await freshPgSchema();
    app = await createTestApp({
      env: { SITEWARD_TRUST_PROXY: '1', SITEWARD_PROTECT_CHALLENGE_AFTER: '0', ...(schema ? { SITEWARD_DATABASE_URL: schema.url } : {}) },
    });
    admin = await app.loginAs('administrator', { login: 'boss' });
    const index = await app.request({ path: '/wp-json/', headers: app.auth(admin) });
    const routes = (index.json as { routes: Record<string, IndexRoute> }).routes;
    paged = Object.entries(routes)
      .filter(([route]) => !route.includes('(?P<'))
      .map(([route, r]) => ({
        route,
        args: [
          ...new Set(
            r.endpoints
              .filter((e) => e.methods.includes('GET'))
              .flatMap((e) => Object.keys(e.args).filter((a) => (PAGING as readonly string[]).includes(a))),
          ),
        ],
      }))
      .filter((r) => r.args.length > 0);
  });
  afterAll(async () => {
    await app.close();
    await schema?.drop();
  });

  const fuzz = async () => {
    const unexpected: string[] = [];
    for (const { route, args } of paged) {
      for (const arg of args) {
        for (const value of BAD_VALUES) {
          const path = `/wp-json${route}?${arg}=${value}`;
          const res = await app.request({ path, headers: app.auth(admin) });
          const code = (res.json as { code?: string } | undefined)?.code;
          const fine =
            (res.status === 200 && Array.isArray(res.json)) ||
            (res.status === 400 && (code === 'rest_invalid_param' || /invalid_page_number$/.test(code ?? '')));
          if (!fine) unexpected.push(`${path} → ${res.status} ${code ?? res.text.slice(0, 80)}`);
        }
      }
    }
    return unexpected;
  };

  it('finds the paged routes from the index: users, Protect blocks and attempts', () => {
    expect(paged.map((r) => r.route)).toEqual(
      expect.arrayContaining(['/wp/v2/users', '/siteward/v1/protect/blocks', '/siteward/v1/protect/attempts']),
    );
  });

  it('answers each bad value on an empty collection with 200 or a clear 400', async () => {
    expect(await fuzz()).toEqual([]);
  });

  it('answers each bad value on a filled collection with 200 or a clear 400', async () => {
    for (let i = 0; i < 6; i += 1)
      await app.request({
        method: 'POST',
        path: '/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org', 'x-forwarded-for': '203.0.113.9' },
        body: 'log=boss&pwd=wrong-password',
      });
    const blocks = await app.request({ path: '/wp-json/siteward/v1/protect/blocks', headers: app.auth(admin) });
    expect((blocks.json as unknown[]).length).toBe(1);
    expect(await fuzz()).toEqual([]);
  });

  it('answers a page far past the last as WordPress does (the page-number error; abilities: an empty page), and reads page=1e400 (0 in PHP) as the first page', async () => {
    for (const { route } of paged) {
      const far = await app.request({ path: `/wp-json${route}?page=99999999999999999999`, headers: app.auth(admin) });
      if (EMPTY_PAST_THE_END.has(route)) {
        expect([far.status, far.json], route).toEqual([200, []]);
      } else {
        expect(far.status, route).toBe(400);
        expect((far.json as { code: string }).code, route).toMatch(/invalid_page_number$/);
      }
      const first = await app.request({ path: `/wp-json${route}?page=1`, headers: app.auth(admin) });
      const zero = await app.request({ path: `/wp-json${route}?page=1e400`, headers: app.auth(admin) });
      expect(zero.status, route).toBe(200);
      expect(zero.json, route).toEqual(first.json);
    }
  });

  it('refuses a negative offset instead of counting from the end', async () => {
    for (const offset of ['-1', '-99999999999999999999']) {
      const res = await app.request({ path: `/wp-json/wp/v2/users?offset=${offset}`, headers: app.auth(admin) });
      expect(res.status, offset).toBe(400);
      expect(res.json, offset).toMatchObject({
        code: 'rest_invalid_param',
        data: { params: { offset: 'offset must be greater than 0 (inclusive)' } },
      });
    }
  });
});
