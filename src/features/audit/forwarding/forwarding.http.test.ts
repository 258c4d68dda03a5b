/**
 * Audit forwarding against real receivers on 127.0.0.1: RFC 5424 syslog over UDP, over TCP with
 * octet counting and over TLS (a self-signed certificate made here), an OTLP/HTTP logs receiver
 * and a webhook (JSON and Slack). Every event and the signed checkpoint arrive; a receiver that
 * is down is tried again after the back-off (the clock is injected) and then gets everything
 * it missed, while the cursors say what is pending.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../../test/helpers/pg-schema.js';
import { freePort } from '../../../../test/helpers/free-port.js';
import { featureMigrations } from '../../../compose.js';
import { openStore, type Store } from '../../../store/index.js';
import type { AuditEventInput } from '../../../wire/audit.js';
import { featureDb } from '../../db/feature-db.js';
import { builtInFeatures } from '../../index.js';
import { writeCheckpoint } from '../checkpoints.js';
import { auditKeys } from '../signing.js';
import { Forwarder, type ForwardTables } from './forwarder.js';
import { otlpSink, webhookSink } from './http-sinks.js';
import type { Sink } from './items.js';
import { syslogSink } from './syslog-sink.js';

const SYSLOG_LINE = /^<(\d+)>1 (\S+) (\S+) siteward - (\S+) - (.*)$/s;

interface Parsed {
  pri: number;
  time: string;
  host: string;
  msgId: string;
  body: { type: string; id?: number; action?: string; last_id?: number; signature?: string };
}

function parseSyslog(message: string): Parsed {
  const m = SYSLOG_LINE.exec(message);
  if (!m) throw new Error(`not RFC 5424: ${message.slice(0, 100)}`);
  return { pri: Number(m[1]), time: m[2]!, host: m[3]!, msgId: m[4]!, body: JSON.parse(m[5]!) as Parsed['body'] };
}

/** RFC 6587 octet-counted frames from a stream, strictly (a bad length fails the test). */
function octetFrames(onMessage: (m: string) => void): (socket: Socket) => void {
  return (socket) => {
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const space = buffer.indexOf(0x20);
        if (space === -1) return;
        const length = Number(buffer.subarray(0, space).toString('ascii'));
        if (!/^[1-9]\d*$/.test(buffer.subarray(0, space).toString('ascii'))) throw new Error('bad octet count');
        if (buffer.length < space + 1 + length) return;
        onMessage(buffer.subarray(space + 1, space + 1 + length).toString('utf8'));
        buffer = buffer.subarray(space + 1 + length);
      }
    });
  };
}

function event(i: number): AuditEventInput {
  return {
    action: i === 2 ? 'user.role_changed' : 'module.activated',
    result: i === 3 ? 'denied' : 'ok',
    actor: { kind: 'user', user_id: 1, login: 'root', credential: { type: 'none' } },
    client_ip: '203.0.113.9',
    user_agent: 'ua',
    request_id: `r${i}`,
    object: { type: 'module', id: `m${i}`, name: `Module ${i} é` },
    changes: { active: { before: false, after: true } },
  };
}

const backends = [{ name: 'sqlite' as const }, ...(process.env.SITEWARD_TEST_PG ? [{ name: 'postgres' as const }] : [])];

describe.each(backends)('audit forwarding to real receivers on $name', ({ name }) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'siteward-forward-'));
  let store: Store;
  let schema: PgSchema | null = null;
  const udp: string[] = [];
  const tcp: string[] = [];
  const tls: string[] = [];
  const otlp: unknown[] = [];
  const hooks: { path: string; body: unknown; authorization?: string }[] = [];
  let udpSocket: UdpSocket;
  let tcpServer: TcpServer;
  let tlsServer: TcpServer;
  let http: HttpServer;
  let httpPort = 0;
  let cert: Buffer;
  let key: Buffer;
  const listen = (server: TcpServer | HttpServer, port = 0) =>
    new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));

  beforeAll(async () => {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')].concat([
        '-days',
        '1',
        '-subj',
        '/CN=syslog.test',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ]),
      { stdio: 'ignore' },
    );
    cert = readFileSync(path.join(dir, 'cert.pem'));
    key = readFileSync(path.join(dir, 'key.pem'));
    udpSocket = createSocket('udp4');
    udpSocket.on('message', (m) => udp.push(m.toString('utf8')));
    await new Promise<void>((resolve) => udpSocket.bind(0, '127.0.0.1', resolve));
    tcpServer = createTcpServer(octetFrames((m) => tcp.push(m)));
    tlsServer = createTlsServer(
      { cert, key },
      octetFrames((m) => tls.push(m)),
    );
    http = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.url === '/v1/logs') otlp.push(JSON.parse(body));
        else hooks.push({ path: req.url ?? '', body: JSON.parse(body), authorization: req.headers.authorization });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    httpPort = await listen(http);
    schema = name === 'postgres' ? await freshPgSchema() : null;
    store = await openStore({
      dataDir: path.join(dir, 'data'),
      migrations: featureMigrations(builtInFeatures),
      ...(schema && { databaseUrl: schema.url }),
    });
  });
  afterAll(async () => {
    await store.close();
    await schema?.drop();
    udpSocket.close();
    tcpServer.close();
    tlsServer.close();
    http.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const forwarder = (sinks: Sink[]) => new Forwarder({ sinks, log: store.auditLog, db: featureDb<ForwardTables>(store), batch: 2 });

  it('sends every event and the signed checkpoint to syslog (UDP, TCP, TLS), OTLP and webhooks', async () => {
    await store.auditLog.append([event(1), event(2), event(3)]);
    const checkpoint = await writeCheckpoint(store.auditLog, auditKeys(randomBytes(32)), Date.now());
    const head = (await store.auditLog.head()).lastId;
    const udpPort = (udpSocket.address() as { port: number }).port;
    const sinks = [
      syslogSink({ url: `udp://127.0.0.1:${udpPort}` }),
      { ...syslogSink({ url: `tcp://127.0.0.1:${await listen(tcpServer)}` }), name: 'syslog-tcp' },
      { ...syslogSink({ url: `tls://127.0.0.1:${await listen(tlsServer)}`, ca: cert }), name: 'syslog-tls' },
      otlpSink(`http://127.0.0.1:${httpPort}`, 'Authorization=Bearer s3cret', { site: 'https://example.org' }),
      webhookSink(`http://user:pw@127.0.0.1:${httpPort}/hook`, 'json', { site: 'https://example.org' }),
      { ...webhookSink(`http://127.0.0.1:${httpPort}/slack`, 'slack', { site: 'https://example.org' }), name: 'slack' },
    ];
    const f = forwarder(sinks);
    await f.runOnce(Date.now());

    for (const received of [udp, tcp, tls]) {
      const parsed = received.map(parseSyslog);
      expect(parsed.map((p) => p.body.type)).toEqual([...Array<string>(head).fill('event'), 'checkpoint']);
      expect(parsed.slice(0, head).map((p) => p.body.id)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
      const role = parsed.find((p) => p.msgId === 'user.role_changed')!;
      expect(role.pri).toBe(13 * 8 + 5);
      expect(parsed.find((p) => p.body.action === 'module.activated' && p.pri === 13 * 8 + 4)).toBeDefined(); // denied: warning
      expect(role.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(parsed.at(-1)!.body).toMatchObject({ last_id: checkpoint.last_id, signature: checkpoint.signature });
      expect(parsed.at(-1)!.msgId).toBe('audit.checkpoint');
    }
    const records = (otlp as { resourceLogs: { scopeLogs: { logRecords: { eventName: string; severityText: string }[] }[] }[] }[]).flatMap(
      (b) => b.resourceLogs[0]!.scopeLogs[0]!.logRecords,
    );
    expect(records.map((r) => r.eventName)).toEqual([
      ...((await store.auditLog.list({}, { limit: 100, offset: 0, order: 'asc' })).map((e) => e.action) as string[]),
      'audit.checkpoint',
    ]);
    const json = hooks.filter((h) => h.path === '/hook').map((h) => h.body as { events: { id: number }[]; checkpoints: unknown[] });
    expect(json.flatMap((b) => b.events.map((e) => e.id))).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    expect(json.flatMap((b) => b.checkpoints)).toEqual([checkpoint]);
    expect(hooks.find((h) => h.path === '/hook')!.authorization).toBe(`Basic ${Buffer.from('user:pw').toString('base64')}`);
    const slack = hooks.filter((h) => h.path === '/slack').map((h) => (h.body as { text: string }).text);
    expect(slack.join('\n')).toMatch(/user\.role_changed module Module 2 é by root \(#1\) from 203\.0\.113\.9: ok/);

    const status = await f.status(Date.now(), 30);
    expect(status.map((s) => [s.sink, s.kind, s.backlog, s.last_delivered_id, s.last_error])).toEqual([
      ['syslog', 'syslog-udp', 0, head, null],
      ['syslog-tcp', 'syslog-tcp', 0, head, null],
      ['syslog-tls', 'syslog-tls', 0, head, null],
      ['otlp', 'otlp-http', 0, head, null],
      ['webhook', 'webhook-json', 0, head, null],
      ['slack', 'webhook-slack', 0, head, null],
    ]);
    // Targets never carry credentials.
    expect(status.find((s) => s.sink === 'webhook')!.target).toBe(`http://127.0.0.1:${httpPort}/hook`);
    expect(JSON.stringify(status)).not.toMatch(/s3cret|pw@/);

    // Nothing new: nothing sent again.
    const before = tcp.length;
    await f.runOnce(Date.now());
    expect(tcp.length).toBe(before);
  });

  it('retries a receiver that is down after the back-off and then delivers what it missed', async () => {
    const port = await freePort();
    const down = { ...syslogSink({ url: `tcp://127.0.0.1:${port}`, timeoutMs: 2000 }), name: 'late' };
    const f = forwarder([down]);
    const t0 = 1_900_000_000_000;
    await f.runOnce(t0);
    let [status] = await f.status(t0, 30);
    expect(status!.last_delivered_id).toBe(0);
    // Failing since this try, and (for up to 30 days) holding the retention back.
    expect(status).toMatchObject({ failing_since: new Date(t0).toISOString(), holds_retention: true });
    expect(status!.last_error).toMatch(/ECONNREFUSED/);
    expect(status!.next_attempt_at).toBe(new Date(t0 + 5000).toISOString());
    const head = (await store.auditLog.head()).lastId;
    expect(status!.backlog).toBe(head);

    // Not due yet: not tried (the receiver is up now, and gets nothing).
    const received: string[] = [];
    const late = createTcpServer(octetFrames((m) => received.push(m)));
    await listen(late, port);
    try {
      await f.runOnce(t0 + 4999);
      expect(received).toEqual([]);
      await store.auditLog.append([event(4)]);
      await f.runOnce(t0 + 5000);
      const ids = received.map(parseSyslog).flatMap((p) => (p.body.type === 'event' ? [p.body.id] : []));
      expect(ids).toEqual(Array.from({ length: head + 1 }, (_, i) => i + 1));
      [status] = await f.status(t0 + 5000, 30);
      expect(status).toMatchObject({ backlog: 0, last_delivered_id: head + 1, next_attempt_at: null, failing_since: null });
      expect(status!.last_success_at).toBe(new Date(t0 + 5000).toISOString());
    } finally {
      late.close();
    }
  });

  it('backs off longer each failure in a row, up to ten minutes', async () => {
    const f = forwarder([
      {
        ...webhookSink(`http://127.0.0.1:${httpPort}/x`, 'json', { site: 's' }),
        name: 'failing',
        send: () => Promise.reject(new Error('HTTP 503')),
      },
    ]);
    let now = 2_000_000_000_000;
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      await f.runOnce(now);
      const next = Date.parse((await f.status(now, 30))[0]!.next_attempt_at!);
      waits.push(next - now);
      now = next;
    }
    expect(waits).toEqual([5000, 10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 600_000, 600_000]);
  });
});
