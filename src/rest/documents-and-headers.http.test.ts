import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';

// The REST documents and headers on the site's pages (Fastify's side of the HTTP adapter); the
// REST layer's own are in documents-and-headers.test.ts.
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

describe('CORS', () => {
  it('never sends CORS headers on site pages', async () => {
    for (const path of ['/', '/xmlrpc.php?rsd', '/no/such/page']) {
      const res = await app.request({ path, headers: { Origin: 'https://evil.example' } });
      expect(res.headers['access-control-allow-origin'], path).toBeUndefined();
    }
  });
});

describe('discovery on site pages', () => {
  it('sends the Link header and <link> tag on the home page', async () => {
    const res = await app.request({ path: '/' });
    expect(res.status).toBe(200);
    expect(res.headers.link).toBe('<http://example.org/wp-json/>; rel="https://api.w.org/"');
    expect(res.text).toContain(`<link rel='https://api.w.org/' href='http://example.org/wp-json/' />`);
  });

  it('carries the REST root in the RSD document', async () => {
    const res = await app.request({ path: '/xmlrpc.php?rsd' });
    expect(res.headers['content-type']).toMatch(/^text\/xml/);
    expect(res.text).toContain('<api name="WP-API" blogID="1" preferred="false" apiLink="http://example.org/wp-json/" />');
  });

  it('forces https REST URLs when the request is https for the home host (trusted proxy)', async () => {
    const proxied = await createTestApp({ env: { SITEWARD_TRUST_PROXY: '1' } });
    try {
      const res = await proxied.request({ path: '/', headers: { 'X-Forwarded-Proto': 'https', Host: 'example.org' } });
      expect(res.headers.link).toBe('<https://example.org/wp-json/>; rel="https://api.w.org/"');
      const other = await proxied.request({ path: '/', headers: { 'X-Forwarded-Proto': 'https', Host: 'admin.other.example' } });
      expect(other.headers.link).toBe('<http://example.org/wp-json/>; rel="https://api.w.org/"');
    } finally {
      await proxied.close();
    }
  });

  it('ignores X-Forwarded-Proto unless the proxy is trusted', async () => {
    const res = await app.request({ path: '/', headers: { 'X-Forwarded-Proto': 'https', Host: 'example.org' } });
    expect(res.headers.link).toBe('<http://example.org/wp-json/>; rel="https://api.w.org/"');
  });
});
