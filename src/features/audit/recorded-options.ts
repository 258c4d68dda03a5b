/**
 * Option changes as an audit event's `changes`: an options repository that passes everything
 * through and records, per option, the value before the transaction's first write and after
 * its last. Values of options whose names say they hold a secret are recorded only as changed.
 */
import type { JsonValue } from '../../core/json.js';
import type { OptionsRepo } from '../../store/types.js';
import type { AuditChange } from '../../wire/audit.js';

/** Option names whose values are never written into the log. */
const SECRET_NAME = /(secret|password|passwd|token|private|api_?key|_key$|salt|hash)/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export class RecordedOptions implements OptionsRepo {
  private readonly before = new Map<string, JsonValue | undefined>();
  private readonly after = new Map<string, JsonValue | undefined>();

  constructor(private readonly inner: OptionsRepo) {}

  get(key: string) {
    return this.inner.get(key);
  }

  getMany(keys: readonly string[]) {
    return this.inner.getMany(keys);
  }

  version() {
    return this.inner.version();
  }

  private async remember(key: string): Promise<void> {
    if (!this.before.has(key)) this.before.set(key, await this.inner.get(key));
  }

  async set(key: string, value: JsonValue, autoload?: boolean): Promise<void> {
    await this.remember(key);
    await this.inner.set(key, value, autoload);
    this.after.set(key, value);
  }

  async delete(key: string): Promise<void> {
    await this.remember(key);
    await this.inner.delete(key);
    this.after.set(key, undefined);
  }

  async update(key: string, fn: (current: JsonValue | undefined) => JsonValue | undefined): Promise<JsonValue | undefined> {
    let seen: JsonValue | undefined;
    const next = await this.inner.update(key, (current) => {
      seen = current;
      return fn(current);
    });
    if (!this.before.has(key)) this.before.set(key, seen);
    this.after.set(key, next);
    return next;
  }

  /** What changed, by option name; options written back to their value are left out. */
  changes(): Record<string, AuditChange> {
    const out: Record<string, AuditChange> = {};
    for (const [key, after] of this.after) {
      const before = this.before.get(key);
      if (JSON.stringify(before) === JSON.stringify(after)) continue;
      out[key] = isSecretName(key) ? { secret: true } : { before: before ?? null, after: after ?? null };
    }
    return out;
  }
}
