/**
 * One options or store transaction with its audit events: the option changes it made are
 * recorded (`RecordedOptions`) and `describe` turns them and the callback's result into events,
 * which are appended in the same transaction (`tx.audit`).
 */
import type { StoreTx } from '../../store/types.js';
import type { AuditChange, AuditObject, AuditResult } from '../../wire/audit.js';
import { RecordedOptions } from './recorded-options.js';
import { auditEvent, type AuditSource } from './source.js';

export interface Described {
  readonly action: string;
  readonly object: AuditObject | null;
  /** Default: the transaction's option changes. */
  readonly changes?: Readonly<Record<string, AuditChange>>;
  readonly result?: AuditResult;
}

/**
 * Runs `fn` through `transaction` (the store's or a plugin's) and records what `describe` says
 * of it. `describe` gets the option changes (empty: nothing changed) and returns the events,
 * none when it returns null or [].
 */
export function audited<T>(
  transaction: (fn: (tx: StoreTx) => Promise<T>) => Promise<T>,
  source: AuditSource,
  fn: (tx: StoreTx) => Promise<T>,
  describe: (result: T, changes: Readonly<Record<string, AuditChange>>) => Described | readonly Described[] | null,
): Promise<T> {
  return transaction(async (tx) => {
    const options = new RecordedOptions(tx.options);
    const result = await fn({ options, audit: tx.audit });
    const changes = options.changes();
    const described = describe(result, changes);
    const list: Described[] =
      described === null ? [] : Array.isArray(described) ? [...(described as readonly Described[])] : [described as Described];
    // No change without its event: options written that `describe` did not account for are recorded anyway.
    if (list.length === 0 && Object.keys(changes).length > 0) list.push({ action: 'options.updated', object: null });
    for (const d of list) tx.audit(auditEvent(source, d.action, d.object, d.changes ?? changes, d.result ?? 'ok'));
    return result;
  });
}
