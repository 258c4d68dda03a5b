/**
 * A bounded map whose entries expire: the hot-path caches of verified credentials.
 * When full, the oldest insertion is evicted (Map keeps insertion order), which is close
 * enough to LRU here because entries live only a few seconds anyway.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(private readonly maxEntries: number) {}

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, until: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Removes every entry for which `match` is true. */
  deleteWhere(match: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (match(entry.value)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
