import { createHash } from 'node:crypto';
import type { TokenSealer } from '../../auth/token-sealer.js';
import type { ConnectionVault, JsonValue } from './connection-vault.js';
import { pickUserinfo, type StoredUserinfo } from './wpcom-user.js';

/**
 * What the connection stores, under which vault key, and how secret fields are sealed. Every
 * secret is sealed with its vault key and field name as context, so values cannot be swapped.
 */
export const KEYS = {
  registration: 'connection:registration',
  pendingPrefix: 'connection:pending:',
  userPrefix: 'connection:user:',
} as const;

/** The site's client at the provider. */
export interface Registration {
  issuer: string;
  redirectUri: string;
  /** Every redirect URI registered (the connection's and sign-in's); absent in registrations older than sign-in. */
  redirectUris?: string[];
  clientId: string;
  clientSecret?: string;
  registrationAccessToken?: string;
  registrationClientUri?: string;
  registeredAt: number;
}

/** One linked site user: their tokens and the cached userinfo. */
export interface LinkedUser {
  issuer: string;
  subject: string;
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  /** ms since the epoch, when the provider told us. */
  accessTokenExpiresAt?: number;
  userinfo: StoredUserinfo;
  userinfoFetchedAt: number;
  linkedAt: number;
}

/** An authorization in progress, keyed by a hash of its state (the state itself is never stored). */
export interface Pending {
  /** `login`: sign-in through the connection (no site user yet); absent: linking a logged-in user. */
  purpose?: 'login';
  /** Hash of the site session key (linking) or of the browser key (sign-in). */
  sessionHash: string;
  /** '' for sign-in. */
  userId: string;
  /** Sign-in only: the same-site path to go to afterwards. */
  returnTo?: string;
  verifier?: string;
  nonce?: string;
  expiresAt: number;
  usedAt?: number;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

export function pendingKey(state: string): string {
  return `${KEYS.pendingPrefix}${sha256(state)}`;
}

export function userKey(userId: string): string {
  return `${KEYS.userPrefix}${userId}`;
}

/** Thrown when a stored record is unreadable: altered, sealed with another key, or malformed. */
export class RecordError extends Error {
  override readonly name = 'RecordError';
}

/** Typed, sealing access to the vault. */
export class ConnectionRecords {
  constructor(
    readonly vault: ConnectionVault,
    private readonly sealer: TokenSealer,
  ) {}

  async readRegistration(): Promise<Registration | undefined> {
    const key = KEYS.registration;
    const raw = record(await this.vault.get(key), key);
    if (raw === undefined) return undefined;
    return {
      issuer: str(raw.issuer, key),
      redirectUri: str(raw.redirectUri, key),
      redirectUris: Array.isArray(raw.redirectUris) ? raw.redirectUris.filter((u): u is string => typeof u === 'string') : undefined,
      clientId: str(raw.clientId, key),
      clientSecret: this.#openOptional(raw.clientSecret, key, 'clientSecret'),
      registrationAccessToken: this.#openOptional(raw.registrationAccessToken, key, 'registrationAccessToken'),
      registrationClientUri: optionalStr(raw.registrationClientUri),
      registeredAt: Number(raw.registeredAt),
    };
  }

  async writeRegistration(reg: Registration): Promise<void> {
    const key = KEYS.registration;
    await this.vault.set(
      key,
      compact({
        issuer: reg.issuer,
        redirectUri: reg.redirectUri,
        redirectUris: reg.redirectUris,
        clientId: reg.clientId,
        clientSecret: this.#sealOptional(reg.clientSecret, key, 'clientSecret'),
        registrationAccessToken: this.#sealOptional(reg.registrationAccessToken, key, 'registrationAccessToken'),
        registrationClientUri: reg.registrationClientUri,
        registeredAt: reg.registeredAt,
      }),
    );
  }

  async readUser(userId: string): Promise<LinkedUser | undefined> {
    const key = userKey(userId);
    const raw = record(await this.vault.get(key), key);
    if (raw === undefined) return undefined;
    const info = record(raw.userinfo, key) ?? {};
    return {
      issuer: str(raw.issuer, key),
      subject: str(raw.subject, key),
      accessToken: this.#open(raw.accessToken, key, 'accessToken'),
      refreshToken: this.#openOptional(raw.refreshToken, key, 'refreshToken'),
      idToken: this.#openOptional(raw.idToken, key, 'idToken'),
      accessTokenExpiresAt: typeof raw.accessTokenExpiresAt === 'number' ? raw.accessTokenExpiresAt : undefined,
      userinfo: pickUserinfo(info),
      userinfoFetchedAt: Number(raw.userinfoFetchedAt),
      linkedAt: Number(raw.linkedAt),
    };
  }

  async writeUser(userId: string, user: LinkedUser): Promise<void> {
    const key = userKey(userId);
    const userinfo: Record<string, JsonValue> = { ...user.userinfo };
    await this.vault.set(
      key,
      compact({
        issuer: user.issuer,
        subject: user.subject,
        accessToken: this.sealer.seal(user.accessToken, `${key}#accessToken`),
        refreshToken: this.#sealOptional(user.refreshToken, key, 'refreshToken'),
        idToken: this.#sealOptional(user.idToken, key, 'idToken'),
        accessTokenExpiresAt: user.accessTokenExpiresAt,
        userinfo,
        userinfoFetchedAt: user.userinfoFetchedAt,
        linkedAt: user.linkedAt,
      }),
    );
  }

  /** Issuer and subject of a linked user, read without opening any sealed field; undefined when absent or malformed. */
  async readUserIdentity(userId: string): Promise<{ issuer: string; subject: string } | undefined> {
    const raw = record(await this.vault.get(userKey(userId)), userKey(userId), false);
    if (raw === undefined || typeof raw.issuer !== 'string' || typeof raw.subject !== 'string') return undefined;
    return { issuer: raw.issuer, subject: raw.subject };
  }

  async linkedUserIds(): Promise<string[]> {
    return (await this.vault.keys(KEYS.userPrefix)).map((k) => k.slice(KEYS.userPrefix.length));
  }

  async readPending(state: string): Promise<Pending | undefined> {
    const key = pendingKey(state);
    const raw = record(await this.vault.get(key), key);
    if (raw === undefined) return undefined;
    return {
      purpose: raw.purpose === 'login' ? 'login' : undefined,
      sessionHash: str(raw.sessionHash, key),
      userId: str(raw.userId, key),
      returnTo: optionalStr(raw.returnTo),
      verifier: this.#openOptional(raw.verifier, key, 'verifier'),
      nonce: this.#openOptional(raw.nonce, key, 'nonce'),
      expiresAt: Number(raw.expiresAt),
      usedAt: typeof raw.usedAt === 'number' ? raw.usedAt : undefined,
    };
  }

  async writePending(state: string, pending: Pending): Promise<void> {
    const key = pendingKey(state);
    await this.vault.set(
      key,
      compact({
        purpose: pending.purpose,
        sessionHash: pending.sessionHash,
        userId: pending.userId,
        returnTo: pending.returnTo,
        verifier: this.#sealOptional(pending.verifier, key, 'verifier'),
        nonce: this.#sealOptional(pending.nonce, key, 'nonce'),
        expiresAt: pending.expiresAt,
        usedAt: pending.usedAt,
      }),
    );
  }

  /** Deletes pending authorizations (and replay markers) whose time is over. */
  async purgePending(now: number): Promise<void> {
    for (const key of await this.vault.keys(KEYS.pendingPrefix)) {
      const raw = record(await this.vault.get(key).catch(() => undefined), key, false);
      if (raw === undefined || !(Number(raw.expiresAt) > now)) await this.vault.delete(key);
    }
  }

  #open(value: unknown, key: string, field: string): string {
    try {
      return this.sealer.open(value, `${key}#${field}`);
    } catch (error) {
      throw new RecordError(`${key} ${field}: ${error instanceof Error ? error.message : 'unreadable'}`);
    }
  }

  #openOptional(value: unknown, key: string, field: string): string | undefined {
    return value === undefined || value === null ? undefined : this.#open(value, key, field);
  }

  #sealOptional(value: string | undefined, key: string, field: string): string | undefined {
    return value === undefined ? undefined : this.sealer.seal(value, `${key}#${field}`);
  }
}

function record(value: unknown, key: string, strict = true): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  if (strict) throw new RecordError(`${key} is not a record`);
  return undefined;
}

function str(value: unknown, key: string): string {
  if (typeof value !== 'string') throw new RecordError(`${key} is missing a field`);
  return value;
}

function optionalStr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function compact(fields: Record<string, JsonValue | undefined>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) out[name] = value;
  return out;
}
