/** What the audit log forwards: its events and its signed checkpoints, in log order. */
import type { AuditCheckpoint, AuditEvent } from '../../../wire/audit.js';

export type ForwardItem =
  { readonly type: 'event'; readonly event: AuditEvent } | { readonly type: 'checkpoint'; readonly checkpoint: AuditCheckpoint };

/** A forwarding destination. `send` resolves once the batch was handed over, or throws (then it is sent again later). */
export interface Sink {
  /** The sink's name (`syslog`, `otlp`, `webhook`): its cursor in the store. */
  readonly name: string;
  /** How it sends (`syslog-udp`, `syslog-tcp`, `syslog-tls`, `otlp-http`, `webhook-json`, …). */
  readonly kind: string;
  /** Where, without credentials or secret headers. */
  readonly target: string;
  send(items: readonly ForwardItem[]): Promise<void>;
}

/** One line describing an item, for chat messages and syslog's human part. */
export function itemLine(item: ForwardItem): string {
  if (item.type === 'checkpoint') {
    const c = item.checkpoint;
    return `checkpoint: events up to #${c.last_id} (${c.count} written), head ${c.head_hash.slice(0, 16)}…, signed ${new Date(c.time).toISOString()}`;
  }
  const e = item.event;
  const actor =
    e.actor.kind === 'user'
      ? `${e.actor.login} (#${e.actor.user_id})`
      : e.actor.kind === 'job'
        ? `job ${e.actor.job ?? ''}`.trim()
        : e.actor.kind;
  const object = e.object ? ` ${e.object.type} ${e.object.name || e.object.id}` : '';
  const where = e.client_ip ? ` from ${e.client_ip}` : '';
  return `#${e.id} ${new Date(e.time).toISOString()} ${e.action}${object} by ${actor}${where}: ${e.result}`;
}

/** A URL for display: no user, password, query or fragment. */
export function displayTarget(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname === '/' && !url.endsWith('/') ? '' : u.pathname}`;
}

/** Rejects after `ms` with a clear message unless `work` settles first. */
export function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
