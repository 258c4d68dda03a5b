/**
 * The HTTP sinks: OTLP/HTTP logs in the JSON encoding (POST to `/v1/logs`), and a webhook in
 * Siteward's JSON or as Slack/Discord chat messages (the chat bodies Monitor sends).
 *
 * OTLP: OpenTelemetry's JS logs exporter needs Node 22.15+ in its current releases and brings
 * the logs SDK with it; the protocol's JSON encoding is a stable, documented wire format, so the
 * body is built here (nothing to load for a worker that never forwards).
 */
import { chatBodies } from '../../../core/chat-webhook.js';
import { displayTarget, itemLine, within, type ForwardItem, type Sink } from './items.js';

export interface HttpSinkOptions {
  readonly timeoutMs?: number;
  /** The site's home URL: the OTLP resource's `service.instance.id` and the webhook's `site`. */
  readonly site: string;
}

/**
 * `fetch` refuses a URL with credentials: `https://user:pass@host/…` is sent as Basic
 * authorization instead (what curl does with such a URL).
 */
function withoutCredentials(url: string): { url: string; headers: Record<string, string> } {
  const u = new URL(url);
  if (u.username === '' && u.password === '') return { url, headers: {} };
  const basic = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64');
  u.username = '';
  u.password = '';
  return { url: u.href, headers: { authorization: `Basic ${basic}` } };
}

async function post(target: string, body: unknown, headers: Record<string, string>, timeoutMs: number, what: string): Promise<string> {
  const { url, headers: auth } = withoutCredentials(target);
  const response = await within(
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Siteward audit forwarding', ...auth, ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    }),
    timeoutMs,
    what,
  );
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
  return text;
}

/** `name=value,name=value` → headers (a value may hold `=`). */
export function parseHeaderList(text: string | null): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const part of (text ?? '').split(',')) {
    const at = part.indexOf('=');
    if (at > 0) headers[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return headers;
}

type AnyValue = { stringValue: string } | { intValue: string };
const str = (key: string, value: string) => ({ key, value: { stringValue: value } as AnyValue });
const int = (key: string, value: number) => ({ key, value: { intValue: String(value) } as AnyValue });

/** One OTLP LogRecord (opentelemetry-proto logs.proto, JSON mapping) for `item`. */
export function otlpRecord(item: ForwardItem): Record<string, unknown> {
  if (item.type === 'checkpoint') {
    const c = item.checkpoint;
    return {
      timeUnixNano: `${c.time}000000`,
      severityNumber: 9,
      severityText: 'INFO',
      eventName: 'audit.checkpoint',
      body: { stringValue: JSON.stringify({ type: 'checkpoint', ...c }) },
      attributes: [
        str('audit.type', 'checkpoint'),
        int('audit.checkpoint.last_id', c.last_id),
        str('audit.checkpoint.head_hash', c.head_hash),
      ],
    };
  }
  const e = item.event;
  const warn = e.result !== 'ok';
  return {
    timeUnixNano: `${e.time}000000`,
    severityNumber: warn ? 13 : 9,
    severityText: warn ? 'WARN' : 'INFO',
    eventName: e.action,
    body: { stringValue: JSON.stringify({ type: 'event', ...e }) },
    attributes: [
      str('audit.type', 'event'),
      int('audit.id', e.id),
      str('audit.action', e.action),
      str('audit.result', e.result),
      str('audit.actor.kind', e.actor.kind),
      int('user.id', e.actor.user_id),
      str('user.name', e.actor.login),
      str('client.address', e.client_ip),
      str('audit.object.type', e.object?.type ?? ''),
      str('audit.object.id', e.object?.id ?? ''),
      str('host.id', e.host_id),
    ],
  };
}

export function otlpSink(url: string, headerText: string | null, options: HttpSinkOptions): Sink {
  const endpoint = new URL(url);
  if (endpoint.pathname === '/' || endpoint.pathname === '') endpoint.pathname = '/v1/logs';
  const headers = parseHeaderList(headerText);
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    name: 'otlp',
    kind: 'otlp-http',
    target: displayTarget(endpoint.href),
    async send(items) {
      if (items.length === 0) return;
      const body = {
        resourceLogs: [
          {
            resource: { attributes: [str('service.name', 'siteward'), str('service.instance.id', options.site)] },
            scopeLogs: [{ scope: { name: 'siteward.audit' }, logRecords: items.map(otlpRecord) }],
          },
        ],
      };
      const answer = await post(endpoint.href, body, headers, timeoutMs, `OTLP ${endpoint.host}`);
      // A partial success names records the receiver will never take: sending them again would not help.
      const rejected = /"rejectedLogRecords"\s*:\s*"?(\d+)/.exec(answer)?.[1];
      if (rejected !== undefined && Number(rejected) > 0)
        throw new PartialSuccess(`OTLP receiver rejected ${rejected} of ${items.length} records`);
    },
  };
}

/** The receiver took the batch but refused some records for good: the forwarder moves on and records the error. */
export class PartialSuccess extends Error {}

export function webhookSink(url: string, format: 'json' | 'slack' | 'discord', options: HttpSinkOptions): Sink {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const what = `webhook ${new URL(url).host}`;
  return {
    name: 'webhook',
    kind: `webhook-${format}`,
    target: displayTarget(url),
    async send(items) {
      if (items.length === 0) return;
      if (format === 'json') {
        const events = items.flatMap((i) => (i.type === 'event' ? [i.event] : []));
        const checkpoints = items.flatMap((i) => (i.type === 'checkpoint' ? [i.checkpoint] : []));
        await post(url, { site: options.site, events, checkpoints }, {}, timeoutMs, what);
        return;
      }
      for (const body of chatBodies(format, `${options.site}: audit log`, items.map(itemLine))) await post(url, body, {}, timeoutMs, what);
    },
  };
}
