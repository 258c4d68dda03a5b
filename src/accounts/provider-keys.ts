import { generateKeyPairSync, randomBytes, type JsonWebKey as NodeJwk } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import { readSetting, writeSetting, type AccountsDb } from './accounts-db.js';

/** What the provider needs to survive a restart unchanged: signing keys, cookie keys, registration token. */
export interface ProviderKeys {
  /** Private JWKs: one RSA key (RS256, the OpenID default every client accepts) and one EC P-256 key (ES256). */
  readonly jwks: JWK[];
  /** Keygrip keys for oidc-provider's signed cookies; the first signs. */
  readonly cookieKeys: string[];
  /** Bearer token that dynamic client registration requires. */
  readonly initialAccessToken: string;
}

/**
 * Reads the keys from the settings table, generating and storing the missing ones once. A given
 * `initialAccessToken` replaces the stored one (and is stored, so a later start without it keeps it).
 */
export function loadOrCreateProviderKeys(db: AccountsDb, initialAccessToken?: string): ProviderKeys {
  return db.transaction((): ProviderKeys => {
    let jwks = parseJwks(readSetting(db, 'jwks'));
    if (jwks === undefined) {
      jwks = [generateJwk('RSA'), generateJwk('EC')];
      writeSetting(db, 'jwks', JSON.stringify(jwks));
    }
    let cookieKeys = parseStrings(readSetting(db, 'cookie_keys'));
    if (cookieKeys === undefined) {
      cookieKeys = [randomBytes(32).toString('base64url')];
      writeSetting(db, 'cookie_keys', JSON.stringify(cookieKeys));
    }
    let token = initialAccessToken ?? readSetting(db, 'initial_access_token');
    if (token === undefined || token === '') token = randomBytes(24).toString('base64url');
    writeSetting(db, 'initial_access_token', token);
    return { jwks, cookieKeys, initialAccessToken: token };
  })();
}

function generateJwk(type: 'RSA' | 'EC'): JWK {
  const { privateKey } =
    type === 'RSA' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk: NodeJwk = privateKey.export({ format: 'jwk' });
  return {
    ...(jwk as JWK),
    kid: `${type.toLowerCase()}-${randomBytes(6).toString('base64url')}`,
    alg: type === 'RSA' ? 'RS256' : 'ES256',
    use: 'sig',
  };
}

function parseJwks(text: string | undefined): JWK[] | undefined {
  if (text === undefined) return undefined;
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.filter((k): k is JWK => typeof k === 'object' && k !== null && typeof (k as { kty?: unknown }).kty === 'string');
}

function parseStrings(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value)) return undefined;
  const strings = value.filter((s): s is string => typeof s === 'string' && s !== '');
  return strings.length > 0 ? strings : undefined;
}
