/**
 * The facts every worker reads on every module list and admin page: is the site registered,
 * who is the master user, who is linked. All of them are options, so one cached read (checked
 * against the store's state version) answers, and a write in any worker is seen by the next
 * read in every other one.
 */
import type { JsonValue } from '../../rest/types.js';
import type { Store } from '../../store/types.js';
import { linkedIdsOf, OPTION_NAMES } from './store-vault.js';

export interface ConnectionFacts {
  /** A client for this issuer and callback URL: configured by hand, or registered and stored. */
  readonly registered: boolean;
  /** The master user's id, when one is set and still linked. */
  readonly master: number | null;
  readonly linked: readonly number[];
  /** Registered and a master user linked (docs/spec/jetpack-v4-reference.md §3.1 `isActive`). */
  readonly connected: boolean;
}

export interface ClientIdentity {
  readonly issuer: string;
  readonly redirectUri: string;
  /** Set when the client was registered by hand (SITEWARD_ACCOUNTS_CLIENT_ID). */
  readonly clientId: string | null;
}

export class ConnectionState {
  constructor(
    private readonly store: Store,
    private readonly client: ClientIdentity | null,
  ) {}

  async facts(): Promise<ConnectionFacts> {
    if (this.client === null) return { registered: false, master: null, linked: [], connected: false };
    const o = await this.store.options.getMany([OPTION_NAMES.registration, OPTION_NAMES.linkedUsers, OPTION_NAMES.masterUser]);
    const registered = this.client.clientId !== null || this.#matches(o.get(OPTION_NAMES.registration));
    const linked = linkedIdsOf(o.get(OPTION_NAMES.linkedUsers));
    const stored = o.get(OPTION_NAMES.masterUser);
    const master = typeof stored === 'number' && linked.includes(stored) ? stored : null;
    return { registered, master, linked, connected: registered && master !== null };
  }

  /**
   * Makes `userId` the master user unless a linked master exists; atomic across workers, so two
   * administrators finishing at once cannot both become master. True when `userId` is master now.
   */
  async claimMaster(userId: number): Promise<boolean> {
    const linked = (await this.facts()).linked;
    const after = await this.store.options.update(OPTION_NAMES.masterUser, (current) =>
      typeof current === 'number' && current !== userId && linked.includes(current) ? current : userId,
    );
    return after === userId;
  }

  /** A stored registration counts only for the configured issuer and callback URL (the engine ignores others too). */
  #matches(value: JsonValue | undefined): boolean {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || this.client === null) return false;
    return value.issuer === this.client.issuer && value.redirectUri === this.client.redirectUri;
  }
}
