import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';

const PATHS = ['/wp-json/', '/wp-json/jetpack/v4/module/all', '/login', '/', '/no/such/page'];

describe('Strict-Transport-Security', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'siteward-hsts-'));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  beforeAll(() => {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'],
      { stdio: 'ignore' },
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const overTls = (app: TestApp, urlPath: string) =>
    new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      const { port } = app.app.http.server.address() as { port: number };
      httpsRequest({ host: '127.0.0.1', port, path: urlPath, rejectUnauthorized: false, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers));
      })
        .on('error', reject)
        .end();
    });

  it('is sent on every answer served over TLS (REST and pages), a year by default', async () => {
    const app = await createTestApp({ env: { SITEWARD_TLS_CERT: cert, SITEWARD_TLS_KEY: key } });
    try {
      for (const p of PATHS) expect((await overTls(app, p))['strict-transport-security'], p).toBe('max-age=31536000');
    } finally {
      await app.close();
    }
  });

  it('follows SITEWARD_HSTS_MAX_AGE, and 0 turns it off', async () => {
    for (const [value, expected] of [
      ['600', 'max-age=600'],
      ['0', undefined],
    ] as const) {
      const app = await createTestApp({ env: { SITEWARD_TLS_CERT: cert, SITEWARD_TLS_KEY: key, SITEWARD_HSTS_MAX_AGE: value } });
      try {
        expect((await overTls(app, '/login'))['strict-transport-security']).toBe(expected);
      } finally {
        await app.close();
      }
    }
  });

  it('is sent behind a trusted proxy that says https, and never on plain HTTP', async () => {
    const proxied = await createTestApp({ env: { SITEWARD_TRUST_PROXY: '1' } });
    const plain = await createTestApp();
    try {
      for (const p of PATHS) {
        expect(
          (await proxied.request({ path: p, headers: { 'x-forwarded-proto': 'https' } })).headers['strict-transport-security'],
          p,
        ).toBe('max-age=31536000');
        expect(
          (await proxied.request({ path: p, headers: { 'x-forwarded-proto': 'http' } })).headers['strict-transport-security'],
          p,
        ).toBeUndefined();
        // An untrusted client's claim is not believed.
        expect(
          (await plain.request({ path: p, headers: { 'x-forwarded-proto': 'https' } })).headers['strict-transport-security'],
          p,
        ).toBeUndefined();
      }
    } finally {
      await proxied.close();
      await plain.close();
    }
  });
});
