import type { JsonValue } from '../core/json.js';
import { parseJson, toJsonText } from './db-values.js';
import type { CachedOption, OptionChange, OptionsBackend, OptionsSnapshot } from './options-backend.js';
import type { OptionsLookup } from './options-draft.js';
import type { OptionsRepo } from './types.js';

/**
 * The options repository with WordPress-style caching: autoloaded options are loaded in one
 * query and kept in memory; others are fetched on demand and then kept too. The cache is tagged
 * with the state version it reflects and every read first compares that tag with the database's
 * version (one indexed single-row read), so a write by any process is seen by the next read.
 *
 * Invariant: the cache reflects every write up to its tag (it may also hold newer values, which
 * is harmless: the database version is then higher than the tag, so the cache gets reloaded).
 * Values are kept as JSON text and parsed per read, so callers may mutate what they get.
 */
export class CachedOptions implements OptionsRepo {
  private tag = -1;
  /** name → JSON text: all autoloaded options plus lazily fetched ones. */
  private values = new Map<string, string>();
  /** Names of options that exist but are not autoloaded. */
  private lazyNames = new Set<string>();
  private reloading: Promise<void> | null = null;

  constructor(private readonly backend: OptionsBackend) {}

  get(key: string): Promise<JsonValue | undefined> {
    // Speed: when the backend knows its version without a query and the cache is at it, the
    // value is answered with one promise instead of a chain of async reads (every settings read).
    if (this.backend.knownVersion?.() === this.tag) {
      const text = this.values.get(key);
      try {
        if (text !== undefined) return Promise.resolve(parseJson(text, key));
      } catch (error) {
        return Promise.reject(error);
      }
      if (!this.lazyNames.has(key)) return Promise.resolve(undefined);
    }
    return this.getMany([key]).then((map) => map.get(key));
  }

  async getMany(keys: readonly string[]): Promise<Map<string, JsonValue>> {
    const version = this.backend.knownVersion?.() ?? (await this.backend.version());
    if (this.tag !== version) {
      await this.reload();
      // The reload joined may have started before `version` was committed: go again until
      // the cache is at least as new as what this read observed.
      while (this.tag < version) await this.reload();
    }
    const out = new Map<string, JsonValue>();
    const missing: string[] = [];
    for (const key of keys) {
      const text = this.values.get(key);
      if (text !== undefined) out.set(key, parseJson(text, key));
      else if (this.lazyNames.has(key)) missing.push(key);
      // Neither autoloaded nor lazily present: the option does not exist; no query needed.
    }
    if (missing.length > 0) {
      const tagBefore = this.tag;
      const rows = await this.backend.read(missing);
      for (const [key, row] of rows) {
        out.set(key, parseJson(row.text, key));
        // Keep it only if the cache was not reloaded meanwhile (the row could predate that reload).
        if (this.tag === tagBefore) this.values.set(key, row.text);
      }
    }
    return out;
  }

  async set(key: string, value: JsonValue, autoload = true): Promise<void> {
    const text = toJsonText(value);
    const version = await this.backend.write(key, text, autoload);
    this.applied(version, key, text, autoload);
  }

  async delete(key: string): Promise<void> {
    const version = await this.backend.remove(key);
    if (version !== null) this.applied(version, key, undefined, true);
  }

  async update(key: string, fn: (current: JsonValue | undefined) => JsonValue | undefined): Promise<JsonValue | undefined> {
    let next: JsonValue | undefined;
    const result = await this.backend.modify(key, (currentText) => {
      next = fn(currentText === undefined ? undefined : parseJson(currentText, key));
      return next === undefined ? undefined : toJsonText(next);
    });
    if (result.version !== null) this.applied(result.version, key, result.text, result.autoload);
    return next;
  }

  version(): Promise<number> {
    return this.backend.version();
  }

  /** Brings the cache to the current version, as any read does, and returns the version it is at. */
  async current(): Promise<number> {
    await this.getMany([]);
    return this.tag;
  }

  /** The version when known without a query (see OptionsBackend.knownVersion); undefined otherwise. */
  knownVersion(): number | undefined {
    return this.backend.knownVersion?.();
  }

  /** Drops the cache (after a transaction committed writes through another path). */
  invalidate(): void {
    this.tag = -1;
  }

  /**
   * `key` as the cache holds it when the cache is at exactly `version` (text undefined: the
   * option does not exist); undefined when it is not, or the option's value was never fetched.
   */
  at(version: number, key: string): CachedOption | undefined {
    if (this.tag !== version) return undefined;
    const text = this.values.get(key);
    if (this.lazyNames.has(key)) return text === undefined ? undefined : { text, autoload: false };
    return { text, autoload: true };
  }

  /**
   * Options at exactly `version`, every key asked for: from the cache when it is at that version,
   * else read now without a lock (an optimistic transaction's base, pg-option-batches.ts: a row
   * newer than `version` means the version row has moved on too, and its commit then fails).
   */
  lookupAt(version: number): OptionsLookup {
    return async (keys) => {
      const out = new Map<string, CachedOption>();
      const unknown: string[] = [];
      for (const key of keys) {
        const known = this.at(version, key);
        if (known) out.set(key, known);
        else unknown.push(key);
      }
      if (unknown.length > 0) {
        const rows = await this.backend.read(unknown);
        for (const key of unknown) out.set(key, rows.get(key) ?? { text: undefined, autoload: true });
      }
      return out;
    };
  }

  /**
   * A store transaction of this process committed `changes` as `version` (one version for the
   * whole transaction): applied in place like a single write (speed: no full reload after a
   * toggle, which writes two options in one transaction).
   */
  committed(version: number, changes: readonly OptionChange[]): void {
    if (this.tag !== version - 1) {
      this.tag = -1;
      return;
    }
    for (const change of changes) this.apply(change.key, change.text, change.autoload);
    this.tag = version;
  }

  /**
   * Our own write produced `version`. If the cache was exactly one write behind, it becomes
   * current by applying the change in place (no reload after a toggle); otherwise some write
   * from elsewhere came in between and the cache is dropped.
   */
  private applied(version: number, key: string, text: string | undefined, autoload: boolean): void {
    this.committed(version, [{ key, text, autoload }]);
  }

  private apply(key: string, text: string | undefined, autoload: boolean): void {
    if (text === undefined) {
      this.values.delete(key);
      this.lazyNames.delete(key);
    } else {
      this.values.set(key, text);
      if (autoload) this.lazyNames.delete(key);
      else this.lazyNames.add(key);
    }
  }

  private reload(): Promise<void> {
    // One reload at a time; concurrent readers share it.
    this.reloading ??= this.backend
      .load()
      .then((snapshot: OptionsSnapshot) => {
        this.values = snapshot.autoloaded;
        this.lazyNames = snapshot.lazyNames;
        this.tag = snapshot.version;
      })
      .finally(() => {
        this.reloading = null;
      });
    return this.reloading;
  }
}

/** Options inside a transaction: no cache (uncommitted values must not leak into it). */
export class DirectOptions implements OptionsRepo {
  constructor(private readonly backend: OptionsBackend) {}

  async get(key: string): Promise<JsonValue | undefined> {
    const row = (await this.backend.read([key])).get(key);
    return row ? parseJson(row.text, key) : undefined;
  }

  async getMany(keys: readonly string[]): Promise<Map<string, JsonValue>> {
    const out = new Map<string, JsonValue>();
    for (const [key, row] of await this.backend.read(keys)) out.set(key, parseJson(row.text, key));
    return out;
  }

  async set(key: string, value: JsonValue, autoload = true): Promise<void> {
    await this.backend.write(key, toJsonText(value), autoload);
  }

  async delete(key: string): Promise<void> {
    await this.backend.remove(key);
  }

  async update(key: string, fn: (current: JsonValue | undefined) => JsonValue | undefined): Promise<JsonValue | undefined> {
    let next: JsonValue | undefined;
    await this.backend.modify(key, (currentText) => {
      next = fn(currentText === undefined ? undefined : parseJson(currentText, key));
      return next === undefined ? undefined : toJsonText(next);
    });
    return next;
  }

  version(): Promise<number> {
    return this.backend.version();
  }
}
