/**
 * Who made a change and from where (docs/audit-log.md "An event"): built from the request the
 * change came with, or for the CLI and background jobs.
 */
import { hash, randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import type { AbilityCaller } from '../../plugins/ability-types.js';
import type { RestRequest } from '../../rest/types.js';
import type { AppPasswordsRepo } from '../../store/types.js';
import type { AuditActor, AuditChange, AuditEventInput, AuditObject, AuditResult, AuditSource } from '../../wire/audit.js';

export type { AuditSource };

/** A request id as a client may send it (X-Request-Id): short and printable, else one is made. */
const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** How long an application password's name is remembered (a rename shows within this). */
const NAME_TTL_MS = 60_000;

/** Turns requests into sources; application passwords are named by a lookup, remembered for a minute. */
export class RequestSources {
  private readonly names = new Map<string, { name: string; until: number }>();

  constructor(
    private readonly appPasswords: Pick<AppPasswordsRepo, 'listForUser'>,
    private readonly clock: () => number = Date.now,
  ) {}

  async of(request: RestRequest): Promise<AuditSource> {
    const user = request.user;
    const header = request.headers['x-request-id'];
    const base = {
      client_ip: request.clientIp ?? '',
      user_agent: (request.headers['user-agent'] ?? '').slice(0, 512),
      request_id: header !== undefined && REQUEST_ID.test(header) ? header : randomUUID(),
    };
    if (user.id === 0) return { ...base, actor: { kind: 'anonymous', user_id: 0, login: '', credential: { type: 'none' } } };
    let credential: AuditActor['credential'] = { type: 'none' };
    if (request.sessionToken) credential = { type: 'session', token_hash: sessionTokenHash(request.sessionToken) };
    else if (request.credential)
      credential = { type: 'application_password', uuid: request.credential, name: await this.name(user.id, request.credential) };
    return { ...base, actor: { kind: 'user', user_id: user.id, login: user.login, credential } };
  }

  private async name(userId: number, uuid: string): Promise<string> {
    const now = this.clock();
    const known = this.names.get(uuid);
    if (known && known.until > now) return known.name;
    const found = (await this.appPasswords.listForUser(userId)).find((p) => p.uuid === uuid);
    const name = found?.name ?? '';
    if (this.names.size >= 1000) this.names.clear();
    this.names.set(uuid, { name, until: now + NAME_TTL_MS });
    return name;
  }
}

/** The `siteward` command, run by the operating-system user. */
export function cliSource(): AuditSource {
  let name = '';
  try {
    name = userInfo().username;
  } catch {
    // No passwd entry for this uid (containers): the uid says who.
    name = String(process.getuid?.() ?? '');
  }
  return {
    actor: { kind: 'cli', user_id: 0, login: '', credential: { type: 'os_user', name } },
    client_ip: '',
    user_agent: '',
    request_id: '',
  };
}

/** A background job (or the server itself: `server`). */
export function jobSource(job: string): AuditSource {
  return {
    actor: { kind: 'job', user_id: 0, login: '', credential: { type: 'none' }, job },
    client_ip: '',
    user_agent: '',
    request_id: '',
  };
}

/** An ability's caller (`wp-abilities/v1` or MCP): the user and the credential that authenticated the call. */
export function abilityCallerSource(caller: AbilityCaller): AuditSource {
  const credential = caller.credential;
  return {
    actor: {
      kind: 'user',
      user_id: caller.user.id,
      login: caller.user.login,
      credential:
        credential === null
          ? { type: 'none' }
          : credential.startsWith('oauth:')
            ? { type: 'oauth', client_id: credential.slice('oauth:'.length) }
            : { type: 'application_password', uuid: credential, name: '' },
    },
    client_ip: '',
    user_agent: '',
    request_id: '',
  };
}

/**
 * A page request (`/login`, `/logout`, SSO, unlock links) by `user` (null: nobody logged in yet),
 * from the address the adapter gave by the trusted-proxy rule. `tokenHash`: the session's hash
 * when a cookie session is the credential.
 */
export function pageSource(
  request: { readonly ip: string; readonly headers: Readonly<Record<string, string>> },
  user: { readonly id: number; readonly login: string } | null,
  tokenHash?: string,
): AuditSource {
  const header = request.headers['x-request-id'];
  return {
    actor:
      user === null || user.id === 0
        ? { kind: 'anonymous', user_id: 0, login: '', credential: { type: 'none' } }
        : {
            kind: 'user',
            user_id: user.id,
            login: user.login,
            credential: tokenHash === undefined ? { type: 'none' } : { type: 'session', token_hash: tokenHash },
          },
    client_ip: request.ip,
    user_agent: (request.headers['user-agent'] ?? '').slice(0, 512),
    request_id: header !== undefined && REQUEST_ID.test(header) ? header : randomUUID(),
  };
}

/** The SHA-256 of a session token, as the sessions table keys it and events name the session. */
export function sessionTokenHash(token: string): string {
  // Speed (issue 44): the one-shot crypto.hash, not a Hash object, on every audited cookie request.
  return hash('sha256', token, 'hex');
}

/** An event from its source and what it says. */
export function auditEvent(
  source: AuditSource,
  action: string,
  object: AuditObject | null,
  changes: Readonly<Record<string, AuditChange>> = {},
  result: AuditResult = 'ok',
): AuditEventInput {
  return {
    action,
    result,
    actor: source.actor,
    client_ip: source.client_ip,
    user_agent: source.user_agent,
    request_id: source.request_id,
    object,
    changes,
  };
}
