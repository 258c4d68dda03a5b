/**
 * Several PostgreSQL hosts in one URL, as libpq takes them
 * (`postgres://user@h1:5432,h2:5433/db?target_session_attrs=read-write`), for a database run
 * highly available (a primary and standbys, one promoted by an orchestrator). node-postgres
 * has no multi-host strings (services-facts.md §6), so the host is chosen here, in front of
 * its pool: each candidate is connected in order and asked what it is, and the first that
 * fits `target_session_attrs` is used. See docs/architecture.md "PostgreSQL hosts".
 */
// Types only: `pg` is loaded by probeHost, at the first probe. Every process imports this file
// (pgAddress, for start-up messages), and a server on SQLite never needs the driver: about
// 2.5 MB of RSS per worker (issue 44, docs/performance.md "Start-up memory").
import type pg from 'pg';
import { ServiceUnavailableError } from '../core/unavailable.js';

export interface PgHost {
  readonly host: string;
  readonly port: number;
}

/** libpq's `target_session_attrs` values (PostgreSQL 14+). */
export const TARGET_SESSION_ATTRS = ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'] as const;
export type TargetSessionAttrs = (typeof TARGET_SESSION_ATTRS)[number];

/** Where a store's connections go: the candidate hosts in order and what a usable one must be. */
export interface PgTarget {
  readonly hosts: readonly PgHost[];
  readonly attrs: TargetSessionAttrs;
  /** Whether a host must be chosen at all: one host with `any` is used as given (today's path, no probe). */
  readonly choosing: boolean;
  /** The URL for one of the hosts: the original with its host list replaced and `target_session_attrs` removed. */
  urlFor(host: PgHost): string;
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(.*)$/s;

/**
 * Reads a `postgres://` URL with one or several hosts. `PGTARGETSESSIONATTRS` applies when the
 * URL has no `target_session_attrs`; libpq's default is `any`.
 */
export function parsePgTarget(url: string, env: Readonly<Record<string, string | undefined>> = process.env): PgTarget {
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new Error('a PostgreSQL URL starts with postgres:// or postgresql://');
  const [, scheme, user, authority, rest] = parts as unknown as [string, string, string | undefined, string, string];
  const queryAt = rest.indexOf('?');
  const path = queryAt < 0 ? rest : rest.slice(0, queryAt);
  const query = new URLSearchParams(queryAt < 0 ? '' : rest.slice(queryAt + 1));
  const raw = query.get('target_session_attrs') ?? env['PGTARGETSESSIONATTRS'] ?? 'any';
  if (!(TARGET_SESSION_ATTRS as readonly string[]).includes(raw)) {
    throw new Error(`target_session_attrs must be one of ${TARGET_SESSION_ATTRS.join(', ')} (got "${raw}")`);
  }
  const attrs = raw as TargetSessionAttrs;
  query.delete('target_session_attrs');
  const defaultPort = Number(query.get('port') ?? 5432);
  const hosts = authority === '' ? [{ host: 'localhost', port: defaultPort }] : authority.split(',').map((h) => hostOf(h, defaultPort));
  const search = query.toString();
  const tail = path + (search === '' ? '' : `?${search}`);
  const prefix = scheme + (user === undefined ? '' : `${user}@`);
  return {
    hosts,
    attrs,
    choosing: hosts.length > 1 || attrs !== 'any',
    urlFor: (host) => `${prefix}${host.host.includes(':') ? `[${host.host}]` : host.host}:${host.port}${tail}`,
  };
}

function hostOf(text: string, defaultPort: number): PgHost {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ? Number(bracketed[2]) : defaultPort };
  const plain = /^([^:]+)(?::(\d+))?$/.exec(text);
  if (!plain) throw new Error(`cannot read the PostgreSQL host "${text}"`);
  return { host: decodeURIComponent(plain[1]!), port: plain[2] ? Number(plain[2]) : defaultPort };
}

/** What a connected server says it is. */
export interface HostState {
  /** `pg_is_in_recovery()`: a standby. */
  readonly standby: boolean;
  /** `transaction_read_only` of a new session (a standby, or `default_transaction_read_only`). */
  readonly readOnly: boolean;
}

/** Whether a server in `state` is what `attrs` asks for (libpq's rules; `prefer-standby` is decided over all hosts). */
export function fits(attrs: TargetSessionAttrs, state: HostState): boolean {
  switch (attrs) {
    case 'any':
    case 'prefer-standby':
      return true;
    case 'read-write':
      return !state.readOnly;
    case 'read-only':
      return state.readOnly;
    case 'primary':
      return !state.standby;
    case 'standby':
      return state.standby;
  }
}

/** Connects to one host and asks what it is; bounded by the connect timeout and one statement's. */
export async function probeHost(config: pg.ClientConfig, timeoutMs: number): Promise<HostState> {
  const { default: driver } = await import('pg');
  const client = new driver.Client({ ...config, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  // A server that drops the connection while probed must not become an unhandled 'error'.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const result = await client.query<{ standby: boolean; ro: string }>(
      "SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') AS ro",
    );
    const row = result.rows[0];
    return { standby: row?.standby === true, readOnly: row?.ro === 'on' };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The first host that fits `target.attrs`, tried in order (`prefer-standby`: a standby first,
 * else any). A host that is down costs at most `timeoutMs`; when none fits, a
 * ServiceUnavailableError says what each one answered.
 */
export async function findHost(
  target: PgTarget,
  configFor: (host: PgHost) => pg.ClientConfig,
  timeoutMs: number,
  probe: typeof probeHost = probeHost,
): Promise<PgHost> {
  const seen: string[] = [];
  let fallback: PgHost | null = null;
  for (const host of target.hosts) {
    const name = `${host.host}:${host.port}`;
    let state: HostState;
    try {
      state = await probe(configFor(host), timeoutMs);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      seen.push(`${name} ${typeof code === 'string' ? code : error instanceof Error ? error.message : 'failed'}`);
      continue;
    }
    if (target.attrs === 'prefer-standby') {
      if (state.standby) return host;
      fallback ??= host;
      seen.push(`${name} primary`);
      continue;
    }
    if (fits(target.attrs, state)) return host;
    seen.push(`${name} ${state.standby ? 'standby' : state.readOnly ? 'read-only' : 'read-write'}`);
  }
  if (fallback) return fallback;
  throw new ServiceUnavailableError('store', `no ${target.attrs} PostgreSQL host (${seen.join('; ')})`);
}

/**
 * `url` with one host: the first that fits its `target_session_attrs` (for tools that open their
 * own connections: backups, restores). A one-host URL with `any` is returned as given.
 */
export async function singleHostUrl(url: string, timeoutMs = 5000): Promise<string> {
  const target = parsePgTarget(url);
  if (!target.choosing) return url;
  return target.urlFor(await findHost(target, (host) => ({ connectionString: target.urlFor(host) }), timeoutMs));
}
