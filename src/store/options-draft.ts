import type { JsonValue } from '../core/json.js';
import { parseJson, toJsonText } from './db-values.js';
import type { CachedOption, OptionChange } from './options-backend.js';
import type { OptionsRepo } from './types.js';

/** Options as a snapshot has them: every key asked for, `text` undefined when it does not exist. */
export type OptionsLookup = (keys: readonly string[]) => Promise<Map<string, CachedOption>>;

/**
 * Options read from a snapshot (`lookup`) with writes kept in memory instead of sent
 * (`changes`, the last per key): the working copy of one optimistic options transaction
 * (pg-option-batches.ts). A write that leaves an option as it is records nothing, so a draft
 * that changed nothing commits nothing.
 */
export class OptionsDraft implements OptionsRepo {
  readonly changes = new Map<string, OptionChange>();

  constructor(
    private readonly lookup: OptionsLookup,
    private readonly snapshotVersion: number,
  ) {}

  /** This draft's view: its own changes over the snapshot (a lookup for a draft layered on it). */
  readonly view: OptionsLookup = async (keys) => {
    const out = new Map<string, CachedOption>();
    const unknown: string[] = [];
    for (const key of keys) {
      const change = this.changes.get(key);
      if (change) out.set(key, { text: change.text, autoload: change.autoload });
      else unknown.push(key);
    }
    if (unknown.length > 0) for (const [key, row] of await this.lookup(unknown)) out.set(key, row);
    return out;
  };

  async get(key: string): Promise<JsonValue | undefined> {
    const text = (await this.view([key])).get(key)?.text;
    return text === undefined ? undefined : parseJson(text, key);
  }

  async getMany(keys: readonly string[]): Promise<Map<string, JsonValue>> {
    const out = new Map<string, JsonValue>();
    for (const [key, row] of await this.view(keys)) if (row.text !== undefined) out.set(key, parseJson(row.text, key));
    return out;
  }

  async set(key: string, value: JsonValue, autoload = true): Promise<void> {
    const text = toJsonText(value);
    const current = (await this.view([key])).get(key);
    if (current?.text !== text || current.autoload !== autoload) this.changes.set(key, { key, text, autoload });
  }

  async delete(key: string): Promise<void> {
    const current = (await this.view([key])).get(key);
    if (current?.text !== undefined) this.changes.set(key, { key, text: undefined, autoload: true });
  }

  async update(key: string, fn: (current: JsonValue | undefined) => JsonValue | undefined): Promise<JsonValue | undefined> {
    const current = (await this.view([key])).get(key);
    const next = fn(current?.text === undefined ? undefined : parseJson(current.text, key));
    const text = next === undefined ? undefined : toJsonText(next);
    // As the store's update: the option keeps its autoload flag, and the same text writes nothing.
    if (text !== current?.text) this.changes.set(key, { key, text, autoload: current?.autoload ?? true });
    return next;
  }

  /** The snapshot's version: nothing this draft wrote has a version until it commits. */
  version(): Promise<number> {
    return Promise.resolve(this.snapshotVersion);
  }

  /** Takes `other`'s changes over this draft's (a member's draft into its batch's). */
  absorb(other: OptionsDraft): void {
    for (const [key, change] of other.changes) this.changes.set(key, change);
  }
}
