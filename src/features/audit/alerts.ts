/**
 * Alerts on chosen audit actions (SITEWARD_AUDIT_ALERT_ACTIONS): a digest of the matching events
 * by e-mail and webhook, at most one a minute. The job reads the log after its own cursor (the
 * `alerts` row of `audit_forward_cursors`, the forwarding's table), so an alert survives a
 * restart and is sent at least once; a failed digest is tried again with the forwarding's back-off.
 * On its first run the cursor starts at the log's head: turning alerts on never mails history.
 */
import { chatBodies } from '../../core/chat-webhook.js';
import type { AuditLogRepo } from '../../store/types.js';
import type { AuditEvent } from '../../wire/audit.js';
import type { FeatureDb } from '../db/feature-db.js';
import type { Mailer } from '../mailer.js';
import { forwardBackoffMs, type ForwardTables } from './forwarding/forwarder.js';
import { itemLine } from './forwarding/items.js';

export const DEFAULT_ALERT_ACTIONS = ['user.role_changed:administrator', 'two_factor.disabled', 'backup.restored', 'audit.verify_failed'];

/** At most one digest in this long. */
export const DIGEST_EVERY_MS = 60_000;
/** Events listed in one digest at most; the rest are counted. */
const DIGEST_MAX = 100;
const CURSOR = 'alerts';

export interface AlertRule {
  /** An exact action, or a prefix (ending with `.`). */
  readonly action: string;
  readonly prefix: boolean;
  /** Only a change whose new value is (or, for a list, newly holds) this. */
  readonly value: string | null;
}

/** The rules of the setting: empty → the defaults, `none` → no alerts. */
export function alertRules(setting: readonly string[]): AlertRule[] {
  const entries = setting.length === 0 ? DEFAULT_ALERT_ACTIONS : setting;
  if (entries.length === 1 && entries[0] === 'none') return [];
  return entries.map((entry) => {
    const at = entry.indexOf(':');
    const action = at === -1 ? entry : entry.slice(0, at);
    const value = at === -1 ? null : entry.slice(at + 1);
    const prefix = action.endsWith('*') || action.endsWith('.');
    return { action: action.endsWith('*') ? action.slice(0, -1) : action, prefix, value };
  });
}

const holds = (value: unknown, wanted: string) => (Array.isArray(value) ? value.includes(wanted) : value === wanted);

export function matches(rule: AlertRule, event: AuditEvent): boolean {
  if (rule.prefix ? !event.action.startsWith(rule.action) : event.action !== rule.action) return false;
  if (rule.value === null) return true;
  const wanted = rule.value;
  return Object.values(event.changes).some((c) => 'after' in c && holds(c.after, wanted) && !holds(c.before, wanted));
}

export interface AlerterOptions {
  readonly log: AuditLogRepo;
  readonly db: FeatureDb<ForwardTables>;
  readonly rules: readonly AlertRule[];
  readonly site: string;
  readonly mailer: Mailer | null;
  /** Who gets the e-mail: the setting's addresses, else the administrators. */
  readonly recipients: () => Promise<string[]>;
  readonly webhook: { readonly url: string; readonly format: 'json' | 'slack' | 'discord' } | null;
  readonly timeoutMs?: number;
}

async function postJson(url: string, body: unknown, timeoutMs: number): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Siteward audit alerts' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`alert webhook answered HTTP ${response.status}`);
}

export class Alerter {
  constructor(private readonly options: AlerterOptions) {}

  get enabled(): boolean {
    return this.options.rules.length > 0 && (this.options.mailer !== null || this.options.webhook !== null);
  }

  private async cursor(): Promise<{ lastId: number; nextTryAt: number; attempts: number; lastSentAt: number | null } | null> {
    const row = await this.options.db.run((db) =>
      db.selectFrom('audit_forward_cursors').selectAll().where('sink', '=', CURSOR).executeTakeFirst(),
    );
    if (!row) return null;
    return {
      lastId: Number(row.last_id),
      nextTryAt: Number(row.next_try_at),
      attempts: Number(row.attempts),
      lastSentAt: row.last_success_at === null ? null : Number(row.last_success_at),
    };
  }

  private async save(values: {
    last_id: number;
    attempts: number;
    next_try_at: number;
    last_error: string | null;
    last_error_at: number | null;
    last_success_at: number | null;
  }): Promise<void> {
    const row = { ...values, checkpoint_time: 0 };
    await this.options.db.run((db) =>
      db
        .insertInto('audit_forward_cursors')
        .values({ sink: CURSOR, ...row })
        .onConflict((oc) => oc.column('sink').doUpdateSet(row))
        .execute(),
    );
  }

  /** One round: the events since the cursor that match, in one digest, unless one went less than a minute ago. */
  async runOnce(now: number): Promise<number> {
    if (!this.enabled) return 0;
    const c = await this.cursor();
    if (c === null) {
      await this.save({
        last_id: (await this.options.log.head()).lastId,
        attempts: 0,
        next_try_at: 0,
        last_error: null,
        last_error_at: null,
        last_success_at: null,
      });
      return 0;
    }
    if (c.nextTryAt > now || (c.lastSentAt !== null && now - c.lastSentAt < DIGEST_EVERY_MS)) return 0;
    const through = (await this.options.log.head()).lastId;
    const found: AuditEvent[] = [];
    let total = 0;
    for (let after = c.lastId; after < through;) {
      const rows = await this.options.log.page({ idAfter: after, idAtMost: through }, 500);
      if (rows.length === 0) break;
      for (const row of rows) {
        const event: AuditEvent = { id: row.id, ...(JSON.parse(row.data) as Omit<AuditEvent, 'id'>) };
        if (this.options.rules.some((rule) => matches(rule, event))) {
          total += 1;
          if (found.length < DIGEST_MAX) found.push(event);
        }
      }
      after = rows[rows.length - 1]!.id;
    }
    const keep = { last_error: null, last_error_at: null };
    if (total === 0) {
      await this.save({ last_id: through, attempts: 0, next_try_at: 0, ...keep, last_success_at: c.lastSentAt });
      return 0;
    }
    try {
      await this.send(found, total);
      await this.save({ last_id: through, attempts: 0, next_try_at: 0, ...keep, last_success_at: now });
      return total;
    } catch (error) {
      const attempts = c.attempts + 1;
      const message = error instanceof Error ? error.message : String(error);
      await this.save({
        last_id: c.lastId,
        attempts,
        next_try_at: now + forwardBackoffMs(attempts),
        last_error: message,
        last_error_at: now,
        last_success_at: c.lastSentAt,
      });
      throw error;
    }
  }

  private async send(events: readonly AuditEvent[], total: number): Promise<void> {
    const { site, mailer, webhook } = this.options;
    const subject = `${site}: ${total} audit ${total === 1 ? 'alert' : 'alerts'}`;
    const lines = events.map((event) => itemLine({ type: 'event', event }));
    if (total > events.length) lines.push(`… and ${total - events.length} more (siteward audit list, or the Activity screen).`);
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    const errors: string[] = [];
    if (mailer !== null) {
      const to = await this.options.recipients();
      if (to.length > 0)
        await mailer
          .send({ to, subject, text: `${lines.join('\n')}\n\nEach event in full: siteward audit show <id>.\n` })
          .catch((e: unknown) => {
            errors.push(`e-mail: ${e instanceof Error ? e.message : String(e)}`);
          });
    }
    if (webhook !== null) {
      const bodies = webhook.format === 'json' ? [{ site, subject, total, events }] : chatBodies(webhook.format, subject, lines);
      try {
        for (const body of bodies) await postJson(webhook.url, body, timeoutMs);
      } catch (e) {
        errors.push(`webhook: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (errors.length > 0) throw new Error(`audit alert digest not sent: ${errors.join('; ')}`);
  }
}
