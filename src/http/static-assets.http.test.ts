import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Feature } from '../features/contract.js';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';

const dir = mkdtempSync(path.join(tmpdir(), 'siteward-assets-'));
writeFileSync(path.join(dir, 'app-1234abcd.js'), 'console.log("0123456789");\n');
writeFileSync(path.join(dir, '.secret'), 'hidden');
writeFileSync(path.join(dir, '%E0'), 'a file whose name is percent-E-zero');

const assetsFeature: Feature = {
  name: 'assets-test',
  register(ctx) {
    ctx.addAssets({ urlPrefix: '/static-test/', dir, cacheControl: 'public, max-age=31536000, immutable' });
  },
};

describe("features' static assets", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ features: [assetsFeature], startJobs: false });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a file with its type, caching headers and an ETag, and answers a matching If-None-Match with 304', async () => {
    const res = await app.request({ path: '/static-test/app-1234abcd.js' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('console.log("0123456789");\n');
    expect(res.headers['content-type']).toBe('text/javascript; charset=UTF-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.etag).toBeTruthy();
    const again = await app.request({ path: '/static-test/app-1234abcd.js', headers: { 'If-None-Match': res.headers.etag! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('answers a byte range with 206', async () => {
    const res = await app.request({ path: '/static-test/app-1234abcd.js', headers: { Range: 'bytes=0-6' } });
    expect(res.status).toBe(206);
    expect(res.text).toBe('console');
    expect(res.headers['content-range']).toBe('bytes 0-6/27');
  });

  it('decodes the path once: %25E0 is the file named %E0, a lone %E0 is a 400, never a 500', async () => {
    const named = await app.request({ path: '/static-test/%25E0' });
    expect(named.status).toBe(200);
    expect(named.text).toBe('a file whose name is percent-E-zero');
    const malformed = await app.request({ path: '/static-test/%E0' });
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({ code: 'rest_bad_request', data: { status: 400 } });
  });

  it('answers 404 for paths outside the directory, dotfiles, directories and missing files', async () => {
    for (const p of [
      '/static-test/..%2F..%2Fetc%2Fpasswd',
      '/static-test/../secret',
      '/static-test/%2e%2e/x',
      '/static-test/.secret',
      '/static-test/',
      '/static-test/missing.js',
    ]) {
      expect((await app.request({ path: p })).status, p).toBe(404);
    }
  });
});
