/**
 * The operations behind the Protect screen, its REST routes and `siteward protect`: list blocks
 * and attempts, lift blocks (logged, in the store: the next attempt on any worker or host sees
 * it), and who is told when an address is blocked.
 */
import type { Logger } from '../../plugins/api.js';
import type { RestError } from '../../rest/errors.js';
import type { JsonValue } from '../../rest/types.js';
import type { Store } from '../../store/types.js';
import { counterKey } from './client-address.js';
import type { AttemptView, BlockView, Page, ProtectBlocks } from './protect-blocks.js';
import { protectError } from './protect-errors.js';
import { audited, type AuditSource } from '../audit/index.js';

export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: RestError };

/** Who is told when an address is blocked: administrators by e-mail, and the monitor's webhook when `webhook`. */
export interface ProtectNotifications {
  readonly administrators: readonly number[];
  readonly webhook: boolean;
}

export const NOTIFICATIONS_OPTION = 'siteward_protect_notifications';

export interface ProtectServiceDeps {
  readonly blocks: ProtectBlocks;
  readonly store: Store;
  readonly clock: () => number;
  readonly log: Logger;
}

/**
 * The counter key an operator means: an IPv4 address, any IPv6 address of a /64 or the /64
 * itself (`2001:db8:1:2::/64`), or a `raw:` key as listed; null when it is none of these.
 */
export function keyOfInput(text: string): string | null {
  const input = text.trim();
  if (input.startsWith('raw:')) return input;
  if (!input.endsWith('/64')) return counterKey(input);
  // A /64 is an IPv6 prefix: `10.1.1.1/64` (or an IPv4-mapped `::ffff:10.1.1.1/64`, whose key is
  // the IPv4 address) names no block, and must not lift the IPv4 one.
  const key = counterKey(input.slice(0, -3));
  return key !== null && key.endsWith('/64') ? key : null;
}

export class ProtectService {
  constructor(private readonly deps: ProtectServiceDeps) {}

  blocksPage(page: number, perPage: number, activeOnly: boolean): Promise<Page<BlockView>> {
    return this.deps.blocks.list({ page, perPage, now: this.deps.clock(), activeOnly });
  }

  attemptsPage(page: number, perPage: number): Promise<Page<AttemptView>> {
    return this.deps.blocks.attempts({ page, perPage });
  }

  /** Lifts the block of one address (`by`: who, for the log and the list). */
  async unblock(address: string, by: string, source: AuditSource): Promise<Outcome<{ address: string }>> {
    const key = keyOfInput(address);
    if (key === null) {
      const shown = address.slice(0, 100);
      const prefixed = shown.trim().endsWith('/64') && counterKey(shown.trim().slice(0, -3)) !== null;
      return { ok: false, error: protectError(prefixed ? 'prefix_mismatch' : 'invalid_address', { address: shown }) };
    }
    const lifted = await this.deps.blocks.lift(key, this.deps.clock(), by, source);
    if (lifted.length === 0) return { ok: false, error: protectError('not_blocked', { address: key }) };
    this.deps.log.info({ event: 'protect.unblocked', address: key, by }, 'protect block lifted');
    return { ok: true, value: { address: key } };
  }

  /** Lifts every block in force; returns the addresses. */
  async unblockAll(by: string, source: AuditSource): Promise<string[]> {
    const lifted = await this.deps.blocks.lift(null, this.deps.clock(), by, source);
    if (lifted.length > 0) this.deps.log.info({ event: 'protect.unblocked', addresses: lifted, by }, 'protect blocks lifted');
    return lifted;
  }

  async notifications(): Promise<ProtectNotifications> {
    return readNotifications(await this.deps.store.options.get(NOTIFICATIONS_OPTION));
  }

  /** Replaces the given members (`administrators`: ids of current administrators; `webhook`: boolean). */
  async setNotifications(input: Readonly<Record<string, unknown>>, source: AuditSource): Promise<Outcome<ProtectNotifications>> {
    const current = await this.notifications();
    let administrators = current.administrators;
    let webhook = current.webhook;
    if (input.administrators !== undefined) {
      const ids = input.administrators;
      if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id) && typeof id === 'number' && id > 0))
        return { ok: false, error: protectError('invalid_notifications') };
      const admins = new Set(await this.administratorIds());
      if (!ids.every((id: number) => admins.has(id))) return { ok: false, error: protectError('invalid_notifications') };
      administrators = [...new Set(ids as number[])];
    }
    if (input.webhook !== undefined) {
      if (typeof input.webhook !== 'boolean') return { ok: false, error: protectError('invalid_notifications') };
      webhook = input.webhook;
    }
    const value = { administrators: [...administrators], webhook };
    await audited(
      (fn) => this.deps.store.transaction(fn),
      source,
      (tx) => tx.options.set(NOTIFICATIONS_OPTION, value),
      (_, changes) =>
        Object.keys(changes).length === 0
          ? null
          : { action: 'protect.notifications_updated', object: { type: 'module', id: 'protect', name: 'Protect' } },
    );
    return { ok: true, value };
  }

  /** The chosen administrators' e-mail addresses (someone no longer an administrator is skipped). */
  async recipients(): Promise<string[]> {
    const { administrators } = await this.notifications();
    const admins = new Set(await this.administratorIds());
    const emails: string[] = [];
    for (const id of administrators) {
      if (!admins.has(id)) continue;
      const user = await this.deps.store.users.byId(id);
      if (user && user.email !== '') emails.push(user.email);
    }
    return emails;
  }

  /** Every administrator, for the screen's choice. */
  async administrators(): Promise<{ id: number; name: string }[]> {
    const found: { id: number; name: string }[] = [];
    for (const user of await this.deps.store.users.list()) {
      if ((await this.deps.store.users.roles(user.id)).includes('administrator'))
        found.push({ id: user.id, name: user.displayName || user.login });
    }
    return found;
  }

  private async administratorIds(): Promise<number[]> {
    return (await this.administrators()).map((a) => a.id);
  }
}

function readNotifications(stored: JsonValue | undefined): ProtectNotifications {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return { administrators: [], webhook: false };
  const ids = Array.isArray(stored.administrators)
    ? stored.administrators.filter((id): id is number => typeof id === 'number' && Number.isInteger(id))
    : [];
  return { administrators: ids, webhook: stored.webhook === true };
}
