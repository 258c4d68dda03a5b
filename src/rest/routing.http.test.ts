import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';
import type { SitewardApi } from '../plugins/api.js';

// What the HTTP adapter decides before the REST layer (src/http/rest-handler.ts); the REST layer's
// own routing is in routing.test.ts.
function echoPlugin(api: SitewardApi): void {
  api.registerRoute('test/v1', '/echo', {
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    callback: (req) => ({ method: req.method, route: req.route, params: req.params }),
  });
}

describe('request routing over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ plugins: [echoPlugin] });
  });
  afterAll(() => app.close());

  it('serves the home page, not the REST layer, for an empty rest_route', async () => {
    const res = await app.request({ path: '/?rest_route=' });
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  it('serves HEAD from a GET endpoint without a body', async () => {
    const res = await app.request({ method: 'HEAD', path: '/wp-json/test/v1/echo' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });

  it('answers a body over the limit with 413 in the JSON error layout', async () => {
    const small = await createTestApp({ env: { SITEWARD_BODY_LIMIT: '2048' }, plugins: [echoPlugin] });
    try {
      const res = await small.request({ method: 'POST', path: '/wp-json/test/v1/echo', body: { big: 'x'.repeat(5000) } });
      expect(res.status).toBe(413);
      expect(res.json).toMatchObject({ code: 'rest_body_too_large', data: { status: 413 } });
      const get = await small.request({ method: 'GET', path: '/wp-json/test/v1/echo', body: { big: 'x'.repeat(5000) } });
      expect(get.status).toBe(413);
      expect(get.headers['content-type']).toMatch(/^application\/json/);
    } finally {
      await small.close();
    }
  });

  it('answers an unknown page with a JSON 404', async () => {
    const res = await app.request({ path: '/no/such/page' });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({ code: 'rest_not_found', data: { status: 404 } });
  });
});
