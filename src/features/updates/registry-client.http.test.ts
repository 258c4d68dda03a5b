import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RegistryClient, registryPath, retryAfter } from './registry-client.js';
import { FakeRegistry } from '../../../test/helpers/fake-registry.js';

describe('npm registry client', () => {
  const registry = new FakeRegistry();
  let baseUrl: string;
  let now: number;
  const clock = () => now;

  beforeAll(async () => {
    baseUrl = await registry.start();
    registry.packages.set('siteward-plugin-seo', '2.1.0');
    registry.packages.set('@acme/siteward-forms', '1.0.0');
  });
  afterAll(() => registry.stop());
  beforeEach(() => {
    registry.mode = 'normal';
    registry.requests.length = 0;
    now = 1_700_000_000_000;
  });

  it('encodes a scoped name with its slash as %2f', () => {
    expect(registryPath('@acme/siteward-forms')).toBe('@acme%2fsiteward-forms');
    expect(registryPath('plain-name')).toBe('plain-name');
    expect(registryPath('../etc/passwd')).toBeNull();
  });

  it('reads dist-tags.latest from the abbreviated document', async () => {
    const client = new RegistryClient({ baseUrl, clock });
    expect(await client.latestVersion('@acme/siteward-forms')).toEqual({ ok: true, latest: '1.0.0', cached: false, stale: false });
    expect(registry.requests[0].url).toBe('/@acme%2fsiteward-forms');
    expect(registry.requests[0].accept).toContain('application/vnd.npm.install-v1+json');
  });

  it('reports an unknown package as not_found and caches that for 12 hours', async () => {
    const client = new RegistryClient({ baseUrl, clock });
    expect(await client.latestVersion('no-such-package')).toEqual({ ok: false, error: { kind: 'not_found' } });
    now += 12 * 3_600_000 - 1;
    await client.latestVersion('no-such-package');
    expect(registry.requests).toHaveLength(1);
    now += 1;
    await client.latestVersion('no-such-package');
    expect(registry.requests).toHaveLength(2);
  });

  it('stays away after a 429 until Retry-After has passed', async () => {
    const client = new RegistryClient({ baseUrl, clock });
    registry.mode = 'rate-limited';
    expect(await client.latestVersion('siteward-plugin-seo')).toEqual({
      ok: false,
      error: { kind: 'rate_limited', retryAt: now + 30_000 },
    });
    registry.mode = 'normal';
    now += 29_999;
    expect(await client.latestVersion('siteward-plugin-seo')).toMatchObject({ ok: false, error: { kind: 'rate_limited' } });
    expect(registry.requests).toHaveLength(1);
    now += 1;
    expect(await client.latestVersion('siteward-plugin-seo')).toMatchObject({ ok: true, latest: '2.1.0' });
  });

  it('understands Retry-After as an HTTP date', () => {
    expect(retryAfter('Wed, 21 Oct 2015 07:28:00 GMT', 0)).toBe(Date.parse('2015-10-21T07:28:00Z'));
    expect(retryAfter('soon', 0)).toBeNull();
  });

  it('reports a registry that is down, and serves the stale answer when it has one', async () => {
    const client = new RegistryClient({ baseUrl, clock });
    await client.latestVersion('siteward-plugin-seo');
    await registry.stop();
    try {
      const fresh = new RegistryClient({ baseUrl, clock });
      expect(await fresh.latestVersion('siteward-plugin-seo')).toMatchObject({ ok: false, error: { kind: 'unavailable' } });
      now += 13 * 3_600_000;
      expect(await client.latestVersion('siteward-plugin-seo')).toEqual({ ok: true, latest: '2.1.0', cached: true, stale: true });
    } finally {
      baseUrl = await registry.start();
    }
  });

  it('gives up on a registry that never answers after the timeout', async () => {
    registry.mode = 'slow';
    const client = new RegistryClient({ baseUrl, clock, timeoutMs: 200 });
    const started = Date.now();
    expect(await client.latestVersion('siteward-plugin-seo')).toEqual({ ok: false, error: { kind: 'timeout', ms: 200 } });
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
