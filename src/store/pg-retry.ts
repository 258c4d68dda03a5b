/**
 * What may run again after PostgreSQL cut a connection off (a failover, a restart, a
 * terminated backend), and what must not (issue 43, docs/operations.md "High availability"):
 * - a read outside a transaction changed nothing: it runs again once, on a fresh connection;
 * - a statement inside BEGIN … that failed before COMMIT was sent: the server rolled the whole
 *   transaction back, so the transaction (its callback) may run again once;
 * - a statement never sent (the driver already knew the connection was dead), or refused as
 *   read-only (25006: a demoted primary refuses a write before doing anything), changed nothing;
 * - a COMMIT sent and cut off, or a write outside a transaction cut off after it was sent, may
 *   have committed: it is never run again, and the client gets 503 + Retry-After.
 */
import { ServiceUnavailableError } from '../core/unavailable.js';
import { isHostDown } from './pg-failover.js';

/**
 * The store is unavailable and what was asked certainly did not take effect: running it again
 * (on a fresh connection) is safe. Still a ServiceUnavailableError: when not run again it
 * answers 503 + Retry-After like any other.
 */
export class NotAppliedError extends ServiceUnavailableError {
  override name = 'NotAppliedError';

  constructor(cause: ServiceUnavailableError) {
    super(cause.service, `${cause.reason} (not applied)`, { cause });
  }
}

/**
 * The store is unavailable and what was cut off may have committed (a COMMIT, or a write
 * outside a transaction, sent before the connection was lost): never run again, answered 503;
 * its reason says so in the `store unavailable` log line (docs/operations.md says how to check).
 */
export class OutcomeUnknownError extends ServiceUnavailableError {
  override name = 'OutcomeUnknownError';

  constructor(cause: ServiceUnavailableError) {
    super(cause.service, `${cause.reason} (cut off after it was sent: it may have committed)`, { cause });
  }
}

/** Whether `error` says that what failed certainly changed nothing (see the module comment). */
export function notApplied(error: unknown): error is NotAppliedError {
  return error instanceof NotAppliedError;
}

/**
 * `attempt()`, and once more when its first run was cut off before anything applied (a
 * NotAppliedError) and took less than `withinMs` (the statement timeout: a request stays
 * within its bound). `attempt` must build all its state afresh on each call.
 */
export async function onceMoreIfNotApplied<T>(attempt: () => Promise<T>, withinMs: number): Promise<T> {
  const startedAt = performance.now();
  try {
    return await attempt();
  } catch (error) {
    if (!notApplied(error) || performance.now() - startedAt >= withinMs) throw error;
    return attempt();
  }
}

/** Where a statement stood on its connection when it failed. */
export interface StatementPlace {
  /** The statement's SQL text. */
  readonly text: unknown;
  /** Inside BEGIN … (before its COMMIT or ROLLBACK). */
  readonly inTransaction: boolean;
  /** A COMMIT was sent on this connection and its outcome is not known to be a failure. */
  readonly commitSent: boolean;
}

/**
 * `classified` (the store's ServiceUnavailableError for `error`) as a NotAppliedError when the
 * statement that failed certainly changed nothing, as an OutcomeUnknownError when it may have
 * committed; otherwise unchanged. Only connection-class failures count (the host gone, shut
 * down, restarting or demoted): a statement cancelled by its timeout is not run again, it
 * already took the request's whole bound (and a statement timeout rolls back what it ran).
 */
export function markNotApplied(error: unknown, classified: unknown, place: StatementPlace): unknown {
  if (!(classified instanceof ServiceUnavailableError) || !isHostDown(error)) return classified;
  if (changedNothing(error, place)) return new NotAppliedError(classified);
  return new OutcomeUnknownError(classified);
}

function changedNothing(error: unknown, place: StatementPlace): boolean {
  // Once a COMMIT went out, whatever else fails on the connection (the rollback Kysely sends
  // after it) says nothing about whether it committed.
  if (place.commitSent) return false;
  if (place.inTransaction || isStatement(place.text, 'rollback')) return true;
  return neverSent(error) || codeOf(error) === '25006' || isRead(place.text);
}

/** The driver refused to send: it already knew the connection was dead or closing. */
export function neverSent(error: unknown): boolean {
  return error instanceof Error && /is not queryable$/.test(error.message);
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/** `text` is exactly the plain `word` (Kysely's begin, commit, rollback). */
export function isStatement(text: unknown, word: string): boolean {
  // Speed: asked of every statement; only short texts can match.
  return typeof text === 'string' && text.length < 20 && text.trim().toLowerCase() === word;
}

/**
 * A SELECT that changes nothing when run twice. Conservative: a SELECT naming anything that
 * writes, notifies, takes locks or sets state is treated as a write (not run again).
 */
const READ = /^\s*select\b/i;
const NOT_ONLY_READ =
  /\b(insert|update|delete|merge|pg_notify|nextval|setval|set_config|pg_(try_)?advisory\w*|pg_terminate_backend|pg_cancel_backend|lo_\w+)\b/i;

export function isRead(text: unknown): boolean {
  return typeof text === 'string' && READ.test(text) && !NOT_ONLY_READ.test(text);
}
