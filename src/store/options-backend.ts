/**
 * What the options repository needs from a database. Values travel as JSON text; parsing
 * happens in the repository so that every caller gets its own copy.
 */

export interface OptionRow {
  readonly text: string;
  readonly autoload: boolean;
}

/** Everything the cache holds after a (re)load, consistent with `version`. */
export interface OptionsSnapshot {
  readonly version: number;
  /** name → JSON text of every autoloaded option. */
  readonly autoloaded: Map<string, string>;
  /** Names of the options that are not autoloaded (their values load on demand). */
  readonly lazyNames: Set<string>;
}

/** One option as a write left it: `text` undefined when it was deleted. */
export interface OptionChange {
  readonly key: string;
  readonly text: string | undefined;
  readonly autoload: boolean;
}

/** An option as some version has it (`text` undefined: it does not exist). */
export type CachedOption = Omit<OptionChange, 'key'>;

/** Outcome of a read-modify-write: `version` is null when nothing was written. */
export interface ModifyResult {
  readonly version: number | null;
  readonly text: string | undefined;
  readonly autoload: boolean;
}

export interface OptionsBackend {
  /** The current state version (one cheap query). */
  version(): Promise<number>;
  /** The state version when known without a query (what `version()` would answer at once); undefined otherwise. */
  knownVersion?(): number | undefined;
  load(): Promise<OptionsSnapshot>;
  read(keys: readonly string[]): Promise<Map<string, OptionRow>>;
  /** Upserts and returns the new state version. */
  write(key: string, text: string, autoload: boolean): Promise<number>;
  /** Deletes and returns the new state version, or null when the option did not exist. */
  remove(key: string): Promise<number | null>;
  /** Atomic read-modify-write of one option (`fn` → undefined deletes). */
  modify(key: string, fn: (current: string | undefined) => string | undefined): Promise<ModifyResult>;
}
