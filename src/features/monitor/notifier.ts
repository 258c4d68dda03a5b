import { chatBody } from '../../core/chat-webhook.js';
import { exactDuration } from '../../core/time.js';
import { smtpTransport } from '../../core/smtp-transport.js';
import type { MonitorTransition } from './uptime-checker.js';

export type Channel = 'email' | 'webhook';

/**
 * What is told: a transition of a check, a certificate about to expire (at 14, 7 and 1 days),
 * or a test asked for from the admin page.
 */
export type MonitorEvent =
  | MonitorTransition
  | { readonly kind: 'certificate'; readonly url: string; readonly at: number; readonly validTo: number; readonly daysLeft: number }
  | { readonly kind: 'test'; readonly url: string; readonly at: number };

/**
 * The webhook's body: `json` (Siteward's documented object, docs/operations.md), `slack`
 * (`{"text": …}`, which Slack incoming webhooks and Discord's `/slack` endpoints take) or
 * `discord` (`{"content": …}`, Discord's own webhook body).
 */
export type WebhookFormat = 'json' | 'slack' | 'discord';
export const WEBHOOK_FORMATS: readonly WebhookFormat[] = ['json', 'slack', 'discord'];

export type DeliveryResult =
  | { readonly ok: true; readonly channel: Channel; readonly event: MonitorEvent; readonly attempts: number }
  | { readonly ok: false; readonly channel: Channel; readonly event: MonitorEvent; readonly attempts: number; readonly error: string };

/** The minimal mail transport the notifier needs (a nodemailer transporter fits). */
export interface MailTransport {
  sendMail(message: { from: string; to: string[]; subject: string; text: string }): Promise<unknown>;
  close(): void;
}

export interface NotifierOptions {
  /** E-mail recipients; no e-mail is sent when empty or without `smtpUrl`. */
  readonly recipients?: readonly string[];
  /** `smtp://user:pass@host:port` or `smtps://…`. */
  readonly smtpUrl?: string;
  readonly from?: string;
  /** JSON POST target for every transition. */
  readonly webhookUrl?: string;
  /** The webhook body's shape; default `json`. */
  readonly webhookFormat?: WebhookFormat;
  /** Shown in the subject; default the URL's host. */
  readonly siteName?: string;
  /** Attempts per delivery, default 5. */
  readonly maxAttempts?: number;
  /** Per-attempt timeout, default 10 000 ms. */
  readonly timeoutMs?: number;
  /** Wait before attempt n + 1 (n ≥ 1); default 5 s · 2^(n−1), at most 10 min. */
  readonly backoffMs?: (attempt: number) => number;
  /** Injectable for tests. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Deliveries kept waiting at most; the oldest is dropped beyond it. Default 100. */
  readonly maxQueue?: number;
  readonly transport?: MailTransport;
  /** Every delivery's final outcome (sent, given up or dropped). */
  readonly onResult?: (result: DeliveryResult) => void;
}

interface Job {
  readonly channel: Channel;
  readonly event: MonitorEvent;
  readonly attempt: number;
  readonly recipients: readonly string[];
}

const defaultBackoff = (attempt: number): number => Math.min(600_000, 5000 * 2 ** (attempt - 1));
const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * Sends monitor transitions by e-mail and webhook from a queue: `notify` returns at once, so
 * a slow or dead mail server never holds up the checker. Each delivery is retried with
 * back-off, a bounded number of times, each attempt under a timeout.
 */
export class MonitorNotifier {
  private readonly queue: Job[] = [];
  private working = false;
  private waiting = 0;
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  private readonly transport: MailTransport | undefined;
  private readonly maxAttempts: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: NotifierOptions) {
    this.maxAttempts = options.maxAttempts ?? 5;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.transport =
      options.transport ??
      (options.smtpUrl !== undefined && options.smtpUrl !== '' ? smtpTransport(options.smtpUrl, this.timeoutMs) : undefined);
  }

  /** Queues the deliveries for one transition; `recipients` (default: the configured ones) are who is asked at the time. */
  notify(event: MonitorEvent, recipients: readonly string[] = this.options.recipients ?? []): void {
    if (this.closed) return;
    if (this.transport !== undefined && recipients.length > 0) this.enqueue({ channel: 'email', event, attempt: 1, recipients });
    if (this.options.webhookUrl !== undefined && this.options.webhookUrl !== '')
      this.enqueue({ channel: 'webhook', event, attempt: 1, recipients });
  }

  /** Sends `event` once on every configured channel, now, and says how each went (the "send a test notification" button). */
  async sendNow(event: MonitorEvent, recipients: readonly string[]): Promise<DeliveryResult[]> {
    const results: DeliveryResult[] = [];
    const channels: Channel[] = [];
    if (this.transport !== undefined && recipients.length > 0) channels.push('email');
    if (this.options.webhookUrl !== undefined && this.options.webhookUrl !== '') channels.push('webhook');
    for (const channel of channels) {
      try {
        if (channel === 'email') await this.sendEmail(event, recipients);
        else await this.postWebhook(event);
        results.push({ ok: true, channel, event, attempts: 1 });
      } catch (error) {
        results.push({ ok: false, channel, event, attempts: 1, error: error instanceof Error ? error.message : String(error) });
      }
    }
    return results;
  }

  /** Resolves when nothing is queued, being sent or waiting for a retry. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops taking transitions, waits for the queue, closes the mail transport. */
  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
    this.transport?.close();
  }

  private enqueue(job: Job): void {
    const limit = this.options.maxQueue ?? 100;
    while (this.queue.length >= limit) {
      const dropped = this.queue.shift();
      if (dropped)
        this.report({ ok: false, channel: dropped.channel, event: dropped.event, attempts: dropped.attempt - 1, error: 'queue full' });
    }
    this.queue.push(job);
    if (!this.working) void this.work();
  }

  private async work(): Promise<void> {
    this.working = true;
    for (let job = this.queue.shift(); job !== undefined; job = this.queue.shift()) await this.attempt(job);
    this.working = false;
    this.settle();
  }

  private async attempt(job: Job): Promise<void> {
    try {
      if (job.channel === 'email') await this.sendEmail(job.event, job.recipients);
      else await this.postWebhook(job.event);
      this.report({ ok: true, channel: job.channel, event: job.event, attempts: job.attempt });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (job.attempt >= this.maxAttempts) {
        this.report({ ok: false, channel: job.channel, event: job.event, attempts: job.attempt, error: message });
        return;
      }
      // The wait happens beside the queue, so other deliveries go on meanwhile.
      this.waiting += 1;
      const sleep = this.options.sleep ?? defaultSleep;
      void sleep((this.options.backoffMs ?? defaultBackoff)(job.attempt)).then(() => {
        this.waiting -= 1;
        this.enqueue({ ...job, attempt: job.attempt + 1 });
      });
    }
  }

  private async sendEmail(event: MonitorEvent, recipients: readonly string[]): Promise<void> {
    const transport = this.transport;
    if (transport === undefined) throw new Error('no mail transport');
    const { subject, text } = this.describe(event);
    await withTimeout(
      transport.sendMail({ from: this.options.from ?? 'siteward@localhost', to: [...recipients], subject, text }),
      this.timeoutMs,
    );
  }

  private async postWebhook(event: MonitorEvent): Promise<void> {
    const response = await fetch(this.options.webhookUrl ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(this.webhookBody(event)),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`webhook answered HTTP ${response.status}`);
  }

  /** The webhook body in the configured format (the JSON one is documented in docs/operations.md). */
  webhookBody(event: MonitorEvent): Record<string, unknown> {
    const { subject, text } = this.describe(event);
    const format = this.options.webhookFormat ?? 'json';
    if (format !== 'json') return chatBody(format, subject, text);
    const base = { event: event.kind, url: event.url, at: iso(event.at), message: subject, text };
    switch (event.kind) {
      case 'certificate':
        return { ...base, certificate: { validTo: iso(event.validTo), daysLeft: event.daysLeft } };
      case 'test':
        return base;
      default: {
        const durationSeconds = Math.round((event.at - event.since) / 1000);
        return {
          ...base,
          since: iso(event.since),
          durationSeconds,
          reason: event.reason,
          lastError: event.lastError,
          ...(event.kind === 'up' ? { downtimeSeconds: event.downtimeSeconds } : {}),
        };
      }
    }
  }

  /** Subject and text; every downtime message says when it started, how long it lasts and the last error. */
  describe(event: MonitorEvent): { subject: string; text: string } {
    const site = this.options.siteName ?? hostOf(event.url);
    const at = iso(event.at);
    switch (event.kind) {
      case 'test':
        return {
          subject: `${site}: test notification`,
          text: `This is a test notification from Siteward Monitor for ${event.url}, sent at ${at}. Nothing is wrong.`,
        };
      case 'certificate':
        return {
          subject: `${site}: certificate expires in ${event.daysLeft} ${event.daysLeft === 1 ? 'day' : 'days'}`,
          text: `The TLS certificate of ${event.url} expires on ${iso(event.validTo)}. Renew it before then: an expired certificate counts as downtime.`,
        };
      default: {
        const lasted = exactDuration((event.at - event.since) / 1000);
        const facts = `Down since: ${iso(event.since)}\nDuration: ${lasted}\nLast error: ${event.lastError}`;
        if (event.kind === 'down')
          return {
            subject: `${site} is down`,
            text: `Siteward Monitor could not reach ${event.url} (${event.reason}); confirmed at ${at}.\n${facts}`,
          };
        if (event.kind === 'still-down')
          return { subject: `${site} is still down`, text: `${event.url} still does not answer as of ${at}.\n${facts}` };
        return {
          subject: `${site} is back up`,
          text: `${event.url} answers again as of ${at}, after ${lasted} of downtime (${event.reason}).\n${facts}`,
        };
      }
    }
  }

  private report(result: DeliveryResult): void {
    try {
      this.options.onResult?.(result);
    } catch {
      // A faulty listener must not stop the queue.
    }
  }

  private isIdle(): boolean {
    return this.queue.length === 0 && !this.working && this.waiting === 0;
  }

  private settle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
