/**
 * Who is changing the connection, for the events the vault writes with each change
 * (docs/audit-log.md "Connection"). The engine writes the vault one key at a time and knows
 * nothing of requests, so the service sets the source around the engine call and the vault
 * reads it here when it writes a change that has an event.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { jobSource, type AuditSource } from '../audit/index.js';

export interface ConnectionAct {
  readonly source: AuditSource;
  /** Linking an administrator: claim the master user in the link's transaction when none is linked. */
  readonly claimMaster?: boolean;
  /** Disconnecting: forgetting the registration also forgets the master user and the links, as one change. */
  readonly disconnect?: boolean;
}

const acts = new AsyncLocalStorage<ConnectionAct>();

/** Runs `fn` (an engine call) with `act` as the source of the connection's events. */
export function actingAs<T>(act: ConnectionAct, fn: () => Promise<T>): Promise<T> {
  return acts.run(act, fn);
}

/** The current act; without one (a change no request asked for), the server. */
export function currentAct(): ConnectionAct {
  return acts.getStore() ?? { source: jobSource('connection') };
}
