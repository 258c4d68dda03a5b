/**
 * The agent clients that signed in with a bearer token (issue 42 item 6), for the Connection
 * screen's list and its revoke button:
 * - one usage row per client id and site user, in the store's status rows (`agent_client:<user
 *   id>:<client id>`: shared by every worker and host, never cached), written when a token is
 *   accepted, at most once a minute per client and user in each process (first use kept, last use
 *   the row's write time), so that a busy agent costs no write per call;
 * - the revoked client ids in one option (`siteward_agent_clients_revoked`): options are cached
 *   in each process and kept fresh by the store's options version (a change in any process or
 *   host is seen at once on SQLite, as PostgreSQL's NOTIFY arrives there), so the check on every
 *   bearer call costs no query.
 * A revoked client stays revoked: tokens it got before or gets after answer 401 `invalid_token`;
 * the agent registers anew (a new client id) to be let in again.
 */
import type { JsonValue } from '../../core/json.js';
import type { Principal } from '../../rest/types.js';
import type { Store } from '../../store/types.js';
import { audited, type AuditSource } from '../audit/index.js';
import type { AgentClientRow } from '../../wire/siteward-v1.js';

export const REVOKED_OPTION = 'siteward_agent_clients_revoked';
const KEY_PREFIX = 'agent_client:';
/** A usage row is written at most this often per client and user (per process). */
export const SEEN_EVERY_MS = 60_000;

export type { AgentClientRow };

interface StoredRow {
  client_id: string;
  client_name: string | null;
  user_id: number;
  user_login: string;
  first_used: number;
}

function isStoredRow(value: JsonValue): value is JsonValue & StoredRow {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const row = value as Record<string, JsonValue>;
  return (
    typeof row.client_id === 'string' &&
    (row.client_name === null || typeof row.client_name === 'string') &&
    typeof row.user_id === 'number' &&
    typeof row.user_login === 'string' &&
    typeof row.first_used === 'number'
  );
}

const iso = (ms: number) => new Date(ms).toISOString();

export class AgentClients {
  readonly #written = new Map<string, number>();

  constructor(
    private readonly store: Pick<Store, 'status' | 'options' | 'transaction'>,
    private readonly clock: () => number,
  ) {}

  /** The revoked client ids (the cached option). */
  async #revoked(): Promise<ReadonlySet<string>> {
    const value = await this.store.options.get(REVOKED_OPTION);
    return new Set(Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []);
  }

  async isRevoked(clientId: string): Promise<boolean> {
    return (await this.#revoked()).has(clientId);
  }

  /** Records that `user` signed in with a token of `clientId` now (at most once a minute per client and user). */
  async seen(clientId: string, clientName: string | null, user: Principal): Promise<void> {
    const key = `${KEY_PREFIX}${user.id}:${clientId}`;
    const now = this.clock();
    const last = this.#written.get(key);
    if (last !== undefined && now - last < SEEN_EVERY_MS) return;
    this.#written.set(key, now);
    if (this.#written.size > 10_000) this.#written.clear();
    const existing = await this.store.status.get(key);
    const firstUsed = existing && isStoredRow(existing.value) ? existing.value.first_used : now;
    const row: StoredRow = {
      client_id: clientId,
      client_name: clientName,
      user_id: user.id,
      user_login: user.login,
      first_used: firstUsed,
    };
    await this.store.status.set(key, row as unknown as JsonValue, now);
  }

  /** Every client and user that signed in, the most recently used first. */
  async list(): Promise<AgentClientRow[]> {
    const revoked = await this.#revoked();
    const rows: { row: AgentClientRow; last: number }[] = [];
    for (const key of await this.store.status.keys(KEY_PREFIX)) {
      const found = await this.store.status.get(key);
      if (!found || !isStoredRow(found.value)) continue;
      const stored = found.value;
      rows.push({
        last: found.updated,
        row: {
          client_id: stored.client_id,
          client_name: stored.client_name,
          user_id: stored.user_id,
          user_login: stored.user_login,
          first_used: iso(stored.first_used),
          last_used: iso(found.updated),
          revoked: revoked.has(stored.client_id),
        },
      });
    }
    return rows.sort((a, b) => b.last - a.last || a.row.client_id.localeCompare(b.row.client_id)).map((r) => r.row);
  }

  /**
   * Revokes `clientId` (every worker and host sees it at its next request), with the audit event
   * `agent_client.revoked` in the same transaction. Returns the client's most recent row as it
   * was, or undefined when no token of that client was ever accepted here.
   */
  async revoke(clientId: string, source: AuditSource): Promise<AgentClientRow | undefined> {
    const previous = (await this.list()).find((row) => row.client_id === clientId);
    if (!previous) return undefined;
    await audited(
      (fn) => this.store.transaction(fn),
      source,
      (tx) =>
        tx.options.update(REVOKED_OPTION, (current) => {
          const ids = Array.isArray(current) ? current.filter((id) => typeof id === 'string' && id !== clientId) : [];
          return [...ids, clientId];
        }),
      () => ({
        action: 'agent_client.revoked',
        object: { type: 'agent_client', id: clientId, name: previous.client_name ?? clientId },
        changes: { revoked: { before: previous.revoked, after: true } },
      }),
    );
    return previous;
  }
}
