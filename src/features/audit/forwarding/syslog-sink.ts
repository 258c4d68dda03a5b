/**
 * RFC 5424 syslog over UDP (RFC 5426), TCP with octet counting (RFC 6587 §3.4.1) and TLS
 * (RFC 5425). The npm syslog clients are unmaintained or lack octet counting (docs/audit-log.md
 * "Forwarding"), so this is a small formatter on node's dgram, net and tls.
 *
 * A message: `<PRI>1 TIMESTAMP HOSTNAME siteward - MSGID - MSG`: facility 13 ("log audit"),
 * severity notice for `ok` and checkpoints, warning for `denied` and `failed`; HOSTNAME the
 * event's host; MSGID the action (`audit.checkpoint` for a checkpoint); MSG the item as one line
 * of JSON, UTF-8 without a BOM.
 */
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { AuditEvent } from '../../../wire/audit.js';
import { displayTarget, within, type ForwardItem, type Sink } from './items.js';

const FACILITY_LOG_AUDIT = 13;
const SEVERITY = { notice: 5, warning: 4 } as const;
/** The largest UDP payload over IPv4; a larger message is sent without its `changes`. */
const UDP_MAX = 65_507;
const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'udp:': 514, 'tcp:': 601, 'tls:': 6514 };

/** RFC 5424 header fields are PRINTUSASCII (33–126) of a bounded length, `-` when empty. */
function headerField(value: string, max: number): string {
  const clean = value.replace(/[^\x21-\x7e]/g, '_').slice(0, max);
  return clean === '' ? '-' : clean;
}

function messageOf(item: ForwardItem, body: string): string {
  const isEvent = item.type === 'event';
  const time = isEvent ? item.event.time : item.checkpoint.time;
  const severity = isEvent && item.event.result !== 'ok' ? SEVERITY.warning : SEVERITY.notice;
  const host = isEvent ? item.event.host_id : '-';
  const msgId = isEvent ? item.event.action : 'audit.checkpoint';
  return `<${FACILITY_LOG_AUDIT * 8 + severity}>1 ${new Date(time).toISOString()} ${headerField(host, 255)} siteward - ${headerField(msgId, 32)} - ${body}`;
}

/** One RFC 5424 message for `item`; `compact` drops an event's `changes` (a datagram too large otherwise). */
export function syslogMessage(item: ForwardItem, compact = false): string {
  if (item.type === 'checkpoint') return messageOf(item, JSON.stringify({ type: 'checkpoint', ...item.checkpoint }));
  const event: AuditEvent & { changes_omitted?: true } = compact ? { ...item.event, changes: {}, changes_omitted: true } : item.event;
  return messageOf(item, JSON.stringify({ type: 'event', ...event }));
}

/** RFC 6587 octet counting: `LEN SP MSG`, LEN the message's length in bytes. */
export function octetFrame(message: string): Buffer {
  const bytes = Buffer.from(message, 'utf8');
  return Buffer.concat([Buffer.from(`${bytes.length} `, 'ascii'), bytes]);
}

export interface SyslogOptions {
  readonly url: string;
  /** PEM of the CA(s) a `tls://` receiver's certificate chains to; default Node's. */
  readonly ca?: string | Buffer;
  readonly caFile?: string | null;
  readonly timeoutMs?: number;
}

export function syslogSink(options: SyslogOptions): Sink {
  const url = new URL(options.url);
  const protocol = url.protocol;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port === '' ? DEFAULT_PORTS[protocol]! : Number(url.port);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const transport = protocol.slice(0, -1);
  let ca = options.ca;

  async function sendUdp(items: readonly ForwardItem[]): Promise<void> {
    const socket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
    try {
      for (const item of items) {
        let data = Buffer.from(syslogMessage(item), 'utf8');
        if (data.length > UDP_MAX) data = Buffer.from(syslogMessage(item, true), 'utf8').subarray(0, UDP_MAX);
        await new Promise<void>((resolve, reject) => socket.send(data, port, host, (error) => (error ? reject(error) : resolve())));
      }
    } finally {
      socket.close();
    }
  }

  async function sendStream(items: readonly ForwardItem[]): Promise<void> {
    if (protocol === 'tls:' && ca === undefined && options.caFile) ca = readFileSync(options.caFile);
    const socket: Socket =
      protocol === 'tls:'
        ? connectTls({ host, port, servername: isIPv6(host) || /^[\d.]+$/.test(host) ? undefined : host, ...(ca !== undefined && { ca }) })
        : connectTcp({ host, port });
    const frames = Buffer.concat(items.map((item) => octetFrame(syslogMessage(item))));
    // Done when the receiver closed after our FIN without an error (refused, reset, certificate: rejected with it).
    const done = new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.once(protocol === 'tls:' ? 'secureConnect' : 'connect', () => socket.end(frames));
      socket.once('close', (hadError) => (hadError ? undefined : resolve()));
    });
    try {
      await within(done, timeoutMs, `syslog ${transport}://${url.host}`);
    } finally {
      socket.destroy();
    }
  }

  return {
    name: 'syslog',
    kind: `syslog-${transport}`,
    target: displayTarget(`${protocol}//${url.host}`),
    send: (items) => (items.length === 0 ? Promise.resolve() : protocol === 'udp:' ? sendUdp(items) : sendStream(items)),
  };
}
