/** JSON values the vault stores. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * Where the connection keeps its state: JSON values by string key. The lead backs it with the
 * store; tests use `MemoryVault`. Secret fields are already encrypted when they get here.
 */
export interface ConnectionVault {
  get(key: string): Promise<unknown>;
  set(key: string, value: JsonValue): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every key starting with `prefix`. */
  keys(prefix: string): Promise<string[]>;
}

/** A vault in a Map (tests, and a single short-lived process). Values are copied in and out. */
export class MemoryVault implements ConnectionVault {
  readonly entries = new Map<string, string>();

  async get(key: string): Promise<unknown> {
    const text = this.entries.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  }

  async set(key: string, value: JsonValue): Promise<void> {
    this.entries.set(key, JSON.stringify(value));
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async keys(prefix: string): Promise<string[]> {
    return [...this.entries.keys()].filter((k) => k.startsWith(prefix));
  }
}
