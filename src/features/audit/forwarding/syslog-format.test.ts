/**
 * The RFC 5424 formatter's edges: header fields are PRINTUSASCII of bounded length (a host name
 * with a space, an action longer than MSGID's 32), the MSG is one line of JSON however many line
 * breaks the event holds, and RFC 6587 octet counting counts bytes, not characters.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../../wire/audit.js';
import { octetFrame, syslogMessage } from './syslog-sink.js';

const event: AuditEvent = {
  id: 42,
  time: Date.UTC(2026, 11, 2, 6, 15, 0, 7),
  host_id: 'web 1\u00e9',
  action: 'plugin.some_vendor.something_rather_long_happened',
  result: 'failed',
  actor: { kind: 'anonymous', user_id: 0, login: '', credential: { type: 'none' } },
  client_ip: '2001:db8::1',
  user_agent: 'line one\nline two',
  request_id: '',
  object: null,
  changes: { note: { before: 'é', after: '\u2603' } },
};

describe('RFC 5424 messages', () => {
  it('keeps header fields printable and bounded, and the message one line', () => {
    const message = syslogMessage({ type: 'event', event });
    const [head, time, host, app, procId, msgId, sd, msg] = message.split(' ');
    // Facility 13 (log audit) × 8 + severity 4 (warning, for `failed`), version 1.
    expect(head).toBe('<108>1');
    expect(time).toBe('2026-12-02T06:15:00.007Z');
    expect(host).toBe('web_1_');
    expect(app).toBe('siteward');
    expect(procId).toBe('-');
    expect(msgId).toBe('plugin.some_vendor.something_rat');
    expect(msgId).toHaveLength(32);
    expect(sd).toBe('-');
    expect(msg?.startsWith('{"type":"event"')).toBe(true);
    expect(message).not.toContain('\n');
    const body = JSON.parse(message.slice(message.indexOf(' - {') + 3)) as AuditEvent;
    expect(body).toMatchObject({ id: 42, user_agent: 'line one\nline two', changes: { note: { after: '\u2603' } } });
  });

  it('frames by byte length (RFC 6587 octet counting)', () => {
    const frame = octetFrame('<13>1 - - - - - - é\u2603');
    const space = frame.indexOf(0x20);
    expect(Number(frame.subarray(0, space).toString())).toBe(frame.length - space - 1);
    expect(frame.length - space - 1).toBe(Buffer.byteLength('<13>1 - - - - - - é\u2603'));
  });

  it('drops the changes of an event too large for a datagram, saying so', () => {
    const compact = syslogMessage({ type: 'event', event }, true);
    expect(JSON.parse(compact.slice(compact.indexOf(' - {') + 3))).toMatchObject({ changes: {}, changes_omitted: true });
  });
});
