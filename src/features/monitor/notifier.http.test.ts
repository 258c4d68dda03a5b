import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSmtpCapture, type SmtpCapture } from '../../../test/helpers/smtp-capture.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MonitorNotifier, type DeliveryResult, type NotifierOptions } from './notifier.js';
import type { MonitorTransition } from './uptime-checker.js';

const AT = Date.UTC(2024, 5, 1, 12, 0, 0);
const down: MonitorTransition = {
  kind: 'down',
  url: 'https://example.org/',
  at: AT + 10_000,
  since: AT,
  reason: 'HTTP 503',
  lastError: 'HTTP 503',
};
const up: MonitorTransition = {
  kind: 'up',
  url: 'https://example.org/',
  at: AT + 300_000,
  since: AT,
  downtimeSeconds: 300,
  reason: 'HTTP 503',
  lastError: 'HTTP 502',
};

interface Mail {
  from: string;
  to: string[];
  data: string;
}

describe('monitor notifier', () => {
  const mails: Mail[] = [];
  const hooks: unknown[] = [];
  /** What the webhook answers next; the last entry repeats. */
  let hookAnswers: ('ok' | 'fail' | 'hang')[] = ['ok'];
  let smtp: SmtpCapture;
  let smtpPort = 0;
  let web: Server;
  let webPort = 0;
  let results: DeliveryResult[] = [];
  let delays: number[] = [];

  beforeAll(async () => {
    smtp = await startSmtpCapture((mail) => mails.push(mail));
    smtpPort = smtp.port;

    web = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const answer = hookAnswers.length > 1 ? hookAnswers.shift() : hookAnswers[0];
        if (answer === 'hang') return;
        hooks.push(JSON.parse(body) as unknown);
        res.statusCode = answer === 'ok' ? 204 : 500;
        res.end();
      });
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    webPort = (web.address() as AddressInfo).port;
  });

  afterAll(async () => {
    web.closeAllConnections();
    await new Promise<void>((resolve) => web.close(() => resolve()));
    await smtp.close();
  });

  beforeEach(() => {
    mails.length = 0;
    hooks.length = 0;
    hookAnswers = ['ok'];
    results = [];
    delays = [];
  });

  const notifier = (extra: Partial<NotifierOptions> = {}): MonitorNotifier =>
    new MonitorNotifier({
      recipients: ['owner@example.org', 'ops@example.org'],
      smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
      from: 'monitor@example.org',
      webhookUrl: `http://127.0.0.1:${webPort}/hook`,
      siteName: 'Example',
      timeoutMs: 2000,
      sleep: (ms) => {
        delays.push(ms);
        return Promise.resolve();
      },
      onResult: (r) => results.push(r),
      ...extra,
    });

  it('mails every recipient and posts JSON to the webhook when the site goes down', async () => {
    const n = notifier();
    n.notify(down);
    await n.close();
    expect(mails).toHaveLength(1);
    expect(mails[0]?.from).toBe('monitor@example.org');
    expect(mails[0]?.to).toEqual(['owner@example.org', 'ops@example.org']);
    expect(mails[0]?.data).toContain('Subject: Example is down');
    expect(mails[0]?.data).toContain('HTTP 503');
    expect(hooks).toEqual([
      {
        event: 'down',
        url: 'https://example.org/',
        at: '2024-06-01T12:00:10.000Z',
        since: '2024-06-01T12:00:00.000Z',
        durationSeconds: 10,
        reason: 'HTTP 503',
        lastError: 'HTTP 503',
        message: 'Example is down',
        text: expect.stringContaining('Down since: 2024-06-01T12:00:00.000Z\nDuration: 10 s\nLast error: HTTP 503') as unknown,
      },
    ]);
    expect(results.map((r) => [r.channel, r.ok, r.attempts])).toEqual([
      ['email', true, 1],
      ['webhook', true, 1],
    ]);
  });

  it('puts the start, the duration and the last error into every e-mail', async () => {
    const n = notifier();
    n.notify({
      kind: 'still-down',
      url: 'https://example.org/',
      at: AT + 3_600_000,
      since: AT,
      reason: 'HTTP 503',
      lastError: 'ECONNREFUSED',
    });
    await n.close();
    const text = mails[0]?.data.replace(/=\r?\n/g, '') ?? '';
    expect(text).toContain('Subject: Example is still down');
    expect(text).toContain('Down since: 2024-06-01T12:00:00.000Z');
    expect(text).toContain('Duration: 1 h');
    expect(text).toContain('Last error: ECONNREFUSED');
  });

  it.each([
    [
      'slack',
      {
        text: expect.stringMatching(
          /^\*Example is down\*\nSiteward Monitor could not reach https:\/\/example.org\/ \(HTTP 503\)/,
        ) as unknown,
      },
    ],
    [
      'discord',
      {
        content: expect.stringMatching(
          /^\*\*Example is down\*\*\n.*\nDown since: 2024-06-01T12:00:00.000Z\nDuration: 10 s\nLast error: HTTP 503$/s,
        ) as unknown,
      },
    ],
  ] as const)('posts the %s format to a chat webhook', async (format, expected) => {
    const n = notifier({ webhookFormat: format, smtpUrl: undefined });
    n.notify(down);
    await n.close();
    expect(hooks).toEqual([expected]);
  });

  it('says how long the downtime lasted when the site is back up', async () => {
    const n = notifier();
    n.notify(up);
    await n.close();
    expect(mails[0]?.data).toContain('Subject: Example is back up');
    expect(mails[0]?.data).toContain('after 5 min of downtime');
    expect(hooks[0]).toMatchObject({ event: 'up', downtimeSeconds: 300 });
  });

  it('retries a failing webhook with growing back-off until it succeeds', async () => {
    hookAnswers = ['fail', 'fail', 'ok'];
    const n = notifier({ recipients: [] });
    n.notify(down);
    await n.close();
    expect(delays).toEqual([5000, 10_000]);
    expect(results).toEqual([{ ok: true, channel: 'webhook', event: down, attempts: 3 }]);
  });

  it('gives up after the last attempt', async () => {
    hookAnswers = ['fail'];
    const n = notifier({ recipients: [], maxAttempts: 3 });
    n.notify(down);
    await n.close();
    expect(results).toEqual([{ ok: false, channel: 'webhook', event: down, attempts: 3, error: 'webhook answered HTTP 500' }]);
  });

  it('counts a webhook that does not answer in time as a failed attempt', async () => {
    hookAnswers = ['hang', 'ok'];
    const n = notifier({ recipients: [], timeoutMs: 150 });
    n.notify(down);
    await n.close();
    expect(results).toEqual([{ ok: true, channel: 'webhook', event: down, attempts: 2 }]);
  });

  it('returns from notify at once and keeps mailing when the mail server is unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const n = notifier({ smtpUrl: `smtp://127.0.0.1:${deadPort}`, maxAttempts: 2 });
    // "At once": notify returns before any delivery has been tried (no stopwatch: a loaded machine may pause any call).
    n.notify(down);
    expect(results).toEqual([]);
    await n.close();
    expect(results.find((r) => r.channel === 'webhook')).toMatchObject({ ok: true });
    expect(results.find((r) => r.channel === 'email')).toMatchObject({ ok: false, attempts: 2 });
  });

  it('drops the oldest delivery when the queue is full', async () => {
    const n = notifier({ recipients: [], maxQueue: 1 });
    n.notify(down);
    n.notify(up);
    n.notify(down);
    await n.close();
    expect(results.filter((r) => !r.ok).map((r) => r.ok || r.error)).toEqual(['queue full']);
    expect(hooks).toHaveLength(2);
  });
});
