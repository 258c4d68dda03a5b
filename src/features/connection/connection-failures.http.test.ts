import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsService } from '../../accounts/accounts-service.js';
import { browserLogin, closedPort, makeSite, startProvider, startServer, type Site } from './testing/connection-kit.js';

describe('connection failures', () => {
  let provider: AccountsService;
  let site: Site;
  beforeAll(async () => {
    provider = await startProvider();
    site = makeSite({ issuer: provider.issuer, registrationToken: provider.initialAccessToken });
    const registered = await site.connection.ensureRegistered();
    if (!registered.ok) throw new Error(registered.error.message);
  });
  afterAll(() => provider.close());

  it('refuses a forged state', async () => {
    const result = await site.connection.completeAuthorization({
      callbackUrl: `/connect/callback?code=abc&state=forged&iss=${encodeURIComponent(provider.issuer)}`,
      sessionKey: 's',
      userId: 1,
    });
    expect(result).toMatchObject({ ok: false, error: { kind: 'state_invalid' } });
    expect(await site.connection.linkedUsers()).toEqual([]);
  });

  it('refuses a replayed state, and a state from another browser session or user', async () => {
    const callbackUrl = await browserLogin(site, 'session-a', 5);
    expect(await site.connection.completeAuthorization({ callbackUrl, sessionKey: 'session-b', userId: 5 })).toMatchObject({
      ok: false,
      error: { kind: 'state_invalid' },
    });
    expect(await site.connection.completeAuthorization({ callbackUrl, sessionKey: 'session-a', userId: 6 })).toMatchObject({
      ok: false,
      error: { kind: 'state_invalid' },
    });
    expect((await site.connection.completeAuthorization({ callbackUrl, sessionKey: 'session-a', userId: 5 })).ok).toBe(true);
    expect(await site.connection.completeAuthorization({ callbackUrl, sessionKey: 'session-a', userId: 5 })).toMatchObject({
      ok: false,
      error: { kind: 'state_replayed' },
    });
  });

  it('refuses a state older than 10 minutes', async () => {
    const callbackUrl = await browserLogin(site, 'slow', 8);
    site.clock.advance(10 * 60_000 + 1);
    expect(await site.connection.completeAuthorization({ callbackUrl, sessionKey: 'slow', userId: 8 })).toMatchObject({
      ok: false,
      error: { kind: 'state_expired' },
    });
    expect(await site.connection.linkedUsers()).not.toContain('8');
  });

  it('refuses a callback whose iss names a second provider', async () => {
    const second = await startProvider();
    try {
      const callback = new URL(await browserLogin(site, 'iss', 9));
      callback.searchParams.set('iss', second.issuer);
      const result = await site.connection.completeAuthorization({ callbackUrl: callback.href, sessionKey: 'iss', userId: 9 });
      expect(result).toMatchObject({ ok: false, error: { kind: 'issuer_mismatch' } });
    } finally {
      await second.close();
    }
  });

  it('refuses a discovery document that names a second provider as issuer', async () => {
    const second = await startProvider();
    const document = await (await fetch(`${second.issuer}/.well-known/openid-configuration`)).text();
    const impostor = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(document));
    try {
      const other = makeSite({ issuer: impostor.url, registrationToken: 'x' });
      expect(await other.connection.ensureRegistered()).toMatchObject({ ok: false, error: { kind: 'issuer_mismatch' } });
      expect(other.vault.entries.size).toBe(0);
    } finally {
      await impostor.close();
      await second.close();
    }
  });

  it('answers provider_down quickly when nothing listens', async () => {
    const other = makeSite({ issuer: `http://127.0.0.1:${await closedPort()}`, registrationToken: 'x' });
    const began = performance.now();
    expect(await other.connection.ensureRegistered()).toMatchObject({ ok: false, error: { kind: 'provider_down' } });
    expect(performance.now() - began).toBeLessThan(4000);
  });

  it('answers provider_timeout within the bound when the provider never answers, and stores nothing', async () => {
    const silent = await startServer(() => undefined);
    try {
      const other = makeSite({ issuer: silent.url, registrationToken: 'x', timeoutMs: 150 });
      const began = performance.now();
      expect(await other.connection.ensureRegistered()).toMatchObject({ ok: false, error: { kind: 'provider_timeout' } });
      expect(performance.now() - began).toBeLessThan(4000);
      expect(other.vault.entries.size).toBe(0);
    } finally {
      await silent.close();
    }
  });

  it('answers provider_timeout when the headers come but the body never ends', async () => {
    const stalling = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"issuer":');
    });
    try {
      const other = makeSite({ issuer: stalling.url, registrationToken: 'x', timeoutMs: 150 });
      expect(await other.connection.ensureRegistered()).toMatchObject({ ok: false, error: { kind: 'provider_timeout' } });
    } finally {
      await stalling.close();
    }
  });

  it('answers provider_invalid for garbage', async () => {
    const garbage = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'));
    try {
      const other = makeSite({ issuer: garbage.url, registrationToken: 'x' });
      expect(await other.connection.ensureRegistered()).toMatchObject({ ok: false, error: { kind: 'provider_invalid' } });
    } finally {
      await garbage.close();
    }
  });

  it('is refused registration without the initial access token, or with a wrong one', async () => {
    for (const registrationToken of [undefined, 'wrong-token']) {
      const other = makeSite({ issuer: provider.issuer, registrationToken });
      const result = await other.connection.ensureRegistered();
      expect(result).toMatchObject({ ok: false, error: { kind: 'registration_refused' } });
      expect(other.vault.entries.size).toBe(0);
      expect(await other.connection.startAuthorization({ sessionKey: 's', userId: 1 })).toMatchObject({
        ok: false,
        error: { kind: 'not_registered' },
      });
    }
  });

  it('says an http loopback issuer does not use HTTPS, and an unreachable https issuer fails the check', async () => {
    expect(await site.connection.recheckSsl()).toMatchObject({ enabled: false, message: expect.stringMatching(/plain http/) });
    const https = makeSite({ issuer: `https://127.0.0.1:${await closedPort()}`, timeoutMs: 500 });
    expect(await https.connection.recheckSsl()).toMatchObject({ enabled: false, message: expect.stringMatching(/ECONNREFUSED/) });
  });
});

describe('a provider restart', () => {
  it('keeps the registered client, keys and accounts (persistent SQLite adapter)', async () => {
    // Its own directory: a provider started without a file removes its directory on close.
    const dir = await mkdtemp(join(tmpdir(), 'siteward-restart-'));
    const first = await startProvider(join(dir, 'accounts.sqlite'));
    const { port, issuer } = first;
    const site = makeSite({ issuer, registrationToken: first.initialAccessToken });
    expect(await site.connection.ensureRegistered()).toMatchObject({ ok: true, registered: true });
    await first.close();

    const restarted = await startProvider(first.dataFile, port);
    try {
      expect(restarted.issuer).toBe(issuer);
      // A new site process: same vault, nothing in memory.
      const again = makeSite({ issuer, registrationToken: restarted.initialAccessToken }, site.vault, site.master);
      const registered = await again.connection.ensureRegistered();
      expect(registered, JSON.stringify(registered)).toMatchObject({ ok: true, registered: false });
      const callbackUrl = await browserLogin(again, 'after-restart', 2);
      expect(await again.connection.completeAuthorization({ callbackUrl, sessionKey: 'after-restart', userId: 2 })).toMatchObject({
        ok: true,
        user: { login: 'ann' },
      });
    } finally {
      await restarted.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
