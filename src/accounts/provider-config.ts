import { errors, type Configuration } from 'oidc-provider';
import type { Clock } from '../auth/clock.js';
import { accountClaims, type AccountStore } from './account-store.js';
import type { AccountsDb } from './accounts-db.js';
import { messagePage } from './interaction-pages.js';
import { registrationIdFactory } from './open-registration.js';
import type { ProviderKeys } from './provider-keys.js';
import { sqliteAdapterFactory } from './sqlite-adapter.js';

/** Lifetimes in seconds, all explicit (oidc-provider warns about each default it has to use). */
export const TTL = {
  AccessToken: 60 * 60,
  AuthorizationCode: 60,
  BackchannelAuthenticationRequest: 10 * 60,
  ClientCredentials: 10 * 60,
  DeviceCode: 10 * 60,
  IdToken: 60 * 60,
  Interaction: 10 * 60,
  RefreshToken: 14 * 24 * 60 * 60,
  Session: 24 * 60 * 60,
  Grant: 14 * 24 * 60 * 60,
} as const;

/** The scopes an agent may ask for a site's MCP server (issue 42): reading, and changing. */
export const AGENT_SCOPES = 'abilities:read abilities:write';

export interface ProviderConfigInput {
  db: AccountsDb;
  clock: Clock;
  keys: ProviderKeys;
  accounts: AccountStore;
}

/**
 * oidc-provider 8 configuration of the dev account service; see docs/spec/oidc-notes.md for why
 * each setting is what it is.
 */
export function providerConfiguration({ db, clock, keys, accounts }: ProviderConfigInput): Configuration {
  return {
    adapter: sqliteAdapterFactory(db, clock),
    jwks: { keys: keys.jwks },
    cookies: { keys: keys.cookieKeys },
    findAccount: (_ctx, sub) => {
      const account = accounts.findById(sub);
      return account === undefined ? undefined : { accountId: account.id, claims: () => accountClaims(account) };
    },
    claims: {
      openid: ['sub'],
      profile: ['preferred_username', 'name', 'picture'],
      email: ['email', 'email_verified'],
    },
    // The agent scopes are listed too: MCP clients name them in their registration (`scope`), from
    // the site's challenge, and a client may only register scopes the provider knows.
    scopes: ['openid', 'offline_access', 'profile', 'email', ...AGENT_SCOPES.split(' ')],
    // PKCE for confidential sites too, not only public clients (the library default).
    pkce: { required: () => true, methods: ['S256'] },
    features: {
      devInteractions: { enabled: false },
      // Open to public clients (agents) within rules, any client with the initial access token
      // (open-registration.ts checks both: the library's own check would refuse every agent).
      registration: { enabled: true, initialAccessToken: false, idFactory: registrationIdFactory(keys.initialAccessToken) },
      revocation: { enabled: true },
      // A client may introspect only its own tokens (the default lets confidential clients see any).
      introspection: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: true },
      // RFC 8707 for agents (MCP clients, issue 42): an authorization that names a `resource` (an
      // http(s) URL, e.g. a site's MCP endpoint) gets a JWT access token for that audience alone,
      // with the agent scopes. Without one (the site's own sign-in) tokens stay opaque, for userinfo.
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (!/^https?:\/\//.test(resource)) throw new errors.InvalidTarget('the resource must be an http(s) URL');
          return {
            scope: AGENT_SCOPES,
            audience: resource,
            accessTokenTTL: TTL.AccessToken,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    // An agent's JWT access token names its client, so that a site can show it on its Connection
    // screen (a resource server cannot read client metadata). Only for resource (JWT) tokens.
    extraTokenClaims: async (ctx, token) => {
      if (token.kind !== 'AccessToken' || token.resourceServer === undefined) return undefined;
      const name = ctx.oidc.client?.clientName;
      return typeof name === 'string' ? { client_name: name } : undefined;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // A refresh token needs the refresh_token grant, offline_access and prompt=consent (pitfall 7).
    issueRefreshToken: (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    // Confidential sites keep their refresh token until 70% of its life has passed; public clients rotate every use.
    rotateRefreshToken: (ctx) => {
      const { RefreshToken: token, Client: client } = ctx.oidc.entities;
      if (token === undefined || client === undefined) return false;
      return client.clientAuthMethod === 'none' || token.ttlPercentagePassed() >= 70;
    },
    ttl: { ...TTL },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = messagePage('Error', `${out.error}: ${out.error_description ?? 'the request could not be completed'}`);
    },
  };
}
