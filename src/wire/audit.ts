/**
 * The audit log's event shape (docs/audit-log.md). Types only, shared by the server that writes
 * and serves events, the CLI that prints them and the admin page that will show them
 * (test/layers.test.ts checks there is no code).
 */

/** How an event ended: done, refused by a permission or guard, or tried and failed. */
export type AuditResult = 'ok' | 'denied' | 'failed';

/** Who acted. */
export type AuditActorKind = 'user' | 'cli' | 'job' | 'anonymous';

/**
 * The credential that authenticated the actor. Never the secret itself: a cookie session is
 * named by the SHA-256 of its token (as the sessions table keys it), an application password by
 * its uuid and name.
 */
export type AuditCredential =
  | { readonly type: 'session'; readonly token_hash: string }
  | { readonly type: 'application_password'; readonly uuid: string; readonly name: string }
  | { readonly type: 'oauth'; readonly client_id: string }
  | { readonly type: 'os_user'; readonly name: string }
  | { readonly type: 'none' };

export interface AuditActor {
  readonly kind: AuditActorKind;
  /** The user's id; 0 when no user acted (CLI without a user, job, anonymous). */
  readonly user_id: number;
  /** The user's login; '' when no user acted. */
  readonly login: string;
  readonly credential: AuditCredential;
  /** For `job`: the job's name (`audit.checkpoint`, `backups.scheduled`…); absent otherwise. */
  readonly job?: string;
}

/** What the event is about, e.g. `{type: 'module', id: 'protect', name: 'Protect'}`. */
export interface AuditObject {
  readonly type: string;
  readonly id: string;
  readonly name: string;
}

/**
 * One field's change. Secrets and password hashes never appear: such a field is recorded as
 * `{secret: true}` ("changed"), without before or after. `null` before: the field did not exist;
 * `null` after: it was removed.
 */
export type AuditChange = { readonly before: unknown; readonly after: unknown } | { readonly secret: true };

/** Who made a change and from where: everything of an event but what it is about. */
export interface AuditSource {
  readonly actor: AuditActor;
  readonly client_ip: string;
  readonly user_agent: string;
  readonly request_id: string;
}

/** What a caller hands the store's audit appender; the store adds `id`, `time` and `host_id`. */
export interface AuditEventInput {
  /** A dotted name, lower case: `module.activated`, `option.updated`, `user.created`. */
  readonly action: string;
  readonly result: AuditResult;
  readonly actor: AuditActor;
  /** The client's address by the trusted-proxy rules (SITEWARD_TRUST_PROXY); '' when none (CLI, job). */
  readonly client_ip: string;
  /** The client's User-Agent header; '' when none. */
  readonly user_agent: string;
  /** The request's id (its X-Request-Id header, else one made for it); '' outside a request. */
  readonly request_id: string;
  readonly object: AuditObject | null;
  /** Field → change; {} when the event changes no named field. */
  readonly changes: Readonly<Record<string, AuditChange>>;
  /** For collapsed events (failed logins): how many, first and last time (UTC ms). */
  readonly count?: number;
  readonly first_time?: number;
  readonly last_time?: number;
}

/** A stored event, as read back, listed, exported and hashed. */
export interface AuditEvent extends AuditEventInput {
  /** Monotonic, one sequence for all hosts. */
  readonly id: number;
  /** When the change committed, UTC milliseconds since the epoch. */
  readonly time: number;
  /** The host that wrote it (SITEWARD_HOST_ID, else the machine's host name). */
  readonly host_id: string;
}

/** A signed statement of the chain's head (docs/audit-log.md "Checkpoints"). */
export interface AuditCheckpoint {
  /** The last event id the checkpoint covers (0: an empty log). */
  readonly last_id: number;
  /** Hex SHA-256 of that event's row (the chain's head), or of the genesis (64 zeros). */
  readonly head_hash: string;
  /** Events written since the log began, purged ones included. */
  readonly count: number;
  /** When it was signed, UTC ms. */
  readonly time: number;
  /** Base64 Ed25519 signature of the checkpoint's canonical JSON (without `signature`). */
  readonly signature: string;
}
