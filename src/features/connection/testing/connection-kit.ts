/** Test-only: a provider, a site connection over a MemoryVault, and a movable clock. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountsService, type AccountsService } from '../../../accounts/accounts-service.js';
import { loginAndConsent, TestBrowser } from '../../../accounts/testing/browser.js';
import type { ConnectionConfig } from '../connection-config.js';
import { MemoryVault } from '../connection-vault.js';
import { createSiteConnection, type SiteConnection } from '../site-connection.js';

export const REDIRECT = 'http://127.0.0.1:9/connect/callback';
export const ANN = { login: 'ann', email: 'ann@example.com', name: 'Ann Example', password: 'correct horse' };

export async function startProvider(dataFile?: string, port?: number): Promise<AccountsService> {
  const ownDir = dataFile === undefined ? await mkdtemp(join(tmpdir(), 'siteward-conn-')) : null;
  const service = await createAccountsService({ dataFile: dataFile ?? join(ownDir!, 'accounts.sqlite'), port });
  if (service.listUsers().length === 0) await service.addUser(ANN);
  if (ownDir === null) return service;
  // A directory made here is removed with the provider, so test runs leave nothing in /tmp.
  const close = service.close.bind(service);
  return Object.assign(service, {
    close: async () => {
      await close();
      await rm(ownDir, { recursive: true, force: true });
    },
  });
}

/**
 * The settings that point a test site at `provider` (its issuer and the initial access token it
 * registers with), plus `extra`.
 */
export function accountServiceEnv(provider: AccountsService, extra: Record<string, string> = {}): Record<string, string> {
  return { SITEWARD_ACCOUNTS_ISSUER: provider.issuer, SITEWARD_ACCOUNTS_REGISTRATION_TOKEN: provider.initialAccessToken, ...extra };
}

export interface Site {
  connection: SiteConnection;
  vault: MemoryVault;
  master: Buffer;
  clock: { now: number; advance(ms: number): void };
}

export function makeSite(
  config: Partial<ConnectionConfig> & { issuer: string },
  vault = new MemoryVault(),
  master: Buffer = randomBytes(32),
): Site {
  const clock = {
    now: Date.now(),
    advance(ms: number) {
      this.now += ms;
    },
  };
  const made = createSiteConnection({ config: { redirectUri: REDIRECT, ...config }, vault, masterSecret: master, clock: () => clock.now });
  if (!made.ok) throw new Error(made.error.message);
  return { connection: made.connection, vault, master, clock };
}

/** Start → login and consent as Ann → the callback URL. */
export async function browserLogin(site: Site, sessionKey: string, userId: number, browser = new TestBrowser()): Promise<string> {
  const start = await site.connection.startAuthorization({ sessionKey, userId });
  if (!start.ok) throw new Error(start.error.message);
  return loginAndConsent(browser, start.url, ANN, REDIRECT);
}

/** A server on 127.0.0.1:0 with the given handler; `close` also cuts open connections. */
export async function startServer(
  handler: Parameters<typeof createServer>[1],
): Promise<{ url: string; close(): Promise<void>; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A loopback port nobody listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const probe = await startServer(() => undefined);
  const port = Number(new URL(probe.url).port);
  await probe.close();
  return port;
}
