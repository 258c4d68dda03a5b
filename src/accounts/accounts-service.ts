import { hkdfSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { systemClock, type Clock } from '../auth/clock.js';
import { AccountStore, type Account, type AddAccountResult, type NewAccount } from './account-store.js';
import { openAccountsDb } from './accounts-db.js';
import { handleInteraction } from './interaction-routes.js';
import { LoginThrottle } from './login-throttle.js';
import { providerConfiguration } from './provider-config.js';
import { OpenRegistrationGate } from './open-registration.js';
import { loadOrCreateProviderKeys } from './provider-keys.js';
import { purgeExpired } from './sqlite-adapter.js';

export interface AccountsServiceOptions {
  /** SQLite file holding clients, grants, sessions, tokens, accounts and keys (created 0600). */
  dataFile: string;
  /** Loopback address to bind; default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Public issuer URL; default `http://<host>:<bound port>`. Must be a loopback http URL. */
  issuer?: string;
  /** Registration bearer token; default: the stored one, or a new random one (then stored). */
  initialAccessToken?: string;
  /** Decides expiry of stored rows and login throttling; oidc-provider itself uses the system time. */
  clock?: Clock;
  /** Where provider-side errors go (server_error events); default: nowhere. */
  onError?: (error: Error) => void;
}

/** A running account service. */
export interface AccountsService {
  /** `http://127.0.0.1:<port>`: the OpenID issuer (no trailing slash). */
  readonly issuer: string;
  /** Bearer token for registering any client at `<issuer>/reg` (without it: public clients only, open-registration.ts). */
  readonly initialAccessToken: string;
  readonly port: number;
  /** The SQLite file given in the options. */
  readonly dataFile: string;
  addUser(account: NewAccount): Promise<AddAccountResult>;
  listUsers(): Account[];
  /** Adds the accounts of a JSON file `[{login, email, name, password}]`; existing logins are skipped. */
  importUsers(file: string): Promise<{ added: number; skipped: number }>;
  /** Stops listening (open connections are cut) and closes the data file. */
  close(): Promise<void>;
}

const LOOPBACK_HOST = /^(127(?:\.\d{1,3}){3}|localhost|\[::1\]|::1)$/;

/**
 * Starts the local central account service: an OpenID Connect provider (oidc-provider 8) with its
 * own login and consent pages, listening on loopback only. Everything it knows lives in
 * `dataFile`, so a restart on the same port keeps clients, grants, sessions and keys.
 *
 * @example
 * const accounts = await createAccountsService({ dataFile: './data/accounts.sqlite' });
 * await accounts.addUser({ login: 'ann', email: 'ann@example.com', name: 'Ann', password: 'correct horse' });
 * console.log(accounts.issuer, accounts.initialAccessToken);
 * await accounts.close();
 */
export async function createAccountsService(options: AccountsServiceOptions): Promise<AccountsService> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK_HOST.test(host)) throw new Error(`the account service only listens on loopback addresses, not "${host}"`);
  if (options.issuer !== undefined) checkIssuer(options.issuer);
  const clock = options.clock ?? systemClock;
  const db = openAccountsDb(options.dataFile);
  try {
    purgeExpired(db, clock);
    const keys = loadOrCreateProviderKeys(db, options.initialAccessToken);
    const accounts = new AccountStore(db, clock);

    // The request listener is attached once the provider exists (it needs the bound port).
    const server = createServer();
    // The issuer must carry the real port, so bind first and build the provider afterwards.
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    const issuer = options.issuer ?? `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;

    const provider = new Provider(issuer, providerConfiguration({ db, clock, keys, accounts }));
    const onError = options.onError ?? (() => undefined);
    provider.on('server_error', (_ctx: unknown, error: Error) => onError(error));
    const callback = provider.callback();
    const deps = {
      provider,
      accounts,
      throttle: new LoginThrottle(clock),
      csrfKey: Buffer.from(hkdfSync('sha256', keys.cookieKeys[0] ?? '', 'siteward accounts', 'csrf', 32)),
      origin: new URL(issuer).origin,
    };
    const gate = new OpenRegistrationGate(db, clock);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.method === 'POST' && (req.url ?? '').split('?')[0] === '/reg') {
        const refused = gate.admit(req.socket.remoteAddress ?? '', req.headers.authorization);
        if (refused) {
          res.writeHead(429, {
            'content-type': 'application/json',
            'retry-after': String(refused.retryAfter),
            'cache-control': 'no-store',
          });
          res.end(JSON.stringify({ error: 'invalid_request', error_description: refused.reason }));
          return;
        }
      }
      handleInteraction(deps, req, res)
        .then((handled) => {
          if (!handled) void callback(req, res);
        })
        .catch((error: unknown) => {
          onError(error instanceof Error ? error : new Error(String(error)));
          if (!res.headersSent) res.writeHead(500).end();
        });
    });

    let closed = false;
    return {
      issuer,
      initialAccessToken: keys.initialAccessToken,
      port,
      dataFile: options.dataFile,
      addUser: (account) => accounts.add(account),
      listUsers: () => accounts.list(),
      importUsers: (file) => accounts.importJson(file),
      async close() {
        if (closed) return;
        closed = true;
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        db.close();
      },
    };
  } catch (error) {
    db.close();
    throw error;
  }
}

function checkIssuer(issuer: string): void {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`issuer "${issuer}" is not a URL`);
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOST.test(url.hostname) || url.pathname !== '/' || url.search !== '' || issuer.endsWith('/')) {
    throw new Error(`issuer "${issuer}" must be a plain http loopback origin such as http://127.0.0.1:4000`);
  }
}
