import type { JsonValue } from '../rest/types.js';

/**
 * Key → JSON value site options (plugin settings, module activation list, module options,
 * dismissed notices, connection state). Autoloaded options are served from an in-memory cache
 * that is invalidated by a state version shared through the store.
 */
export interface OptionsRepo {
  /** The stored value, or undefined when the option does not exist. */
  get(key: string): Promise<JsonValue | undefined>;
  /** Several values at once (missing keys are absent from the map). */
  getMany(keys: readonly string[]): Promise<Map<string, JsonValue>>;
  /** Creates or replaces an option. `autoload` defaults to true. */
  set(key: string, value: JsonValue, autoload?: boolean): Promise<void>;
  /** Removes an option; no error when absent. */
  delete(key: string): Promise<void>;
  /**
   * Atomic read-modify-write: `fn` gets the current value and returns the new one
   * (undefined deletes). Concurrent updates of one key from any process never lose a write.
   * Returns the new value.
   */
  update(key: string, fn: (current: JsonValue | undefined) => JsonValue | undefined): Promise<JsonValue | undefined>;
  /** A number that changes whenever any option changes (in any process sharing the store). */
  version(): Promise<number>;
}

/** The part of the store available inside a transaction. */
export interface StoreTx {
  readonly options: OptionsRepo;
}
