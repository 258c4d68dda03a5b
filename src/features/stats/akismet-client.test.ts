import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AkismetClient } from './akismet-client.js';
import { akismetStatsAnswer } from './akismet-stats-answer.js';

const GOOD_KEY = 'abcdef123456';
const BLOG = 'https://example.com';
const HOUR = 3_600_000;

function statsFor(from: string): Record<string, unknown> {
  return {
    spam: from === 'all' ? 1234 : 40,
    ham: 56,
    missed_spam: 0,
    false_positives: 1,
    accuracy: 99.92,
    time_saved: 7200,
    breakdown: { [from === 'all' ? '2016' : '2016-08']: { spam: 40, ham: 5, missed_spam: 0, false_positives: 1, da: from === 'all' ? '2016-01-01' : '2016-08-01' } },
  };
}

/** A small Akismet: `mode` switches it between behaving, answering garbage and never answering. */
class FakeAkismet {
  mode: 'normal' | 'garbage' | 'slow' = 'normal';
  readonly requests: { path: string; params: URLSearchParams }[] = [];
  private readonly server: Server = createServer((req, res) => void this.handle(req, res));

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const params = new URLSearchParams(text);
    this.requests.push({ path: req.url ?? '', params });
    if (this.mode === 'slow') return; // never answers
    if (this.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>502 from a proxy</html>');
      return;
    }
    const valid = (params.get('key') ?? params.get('api_key')) === GOOD_KEY;
    if (req.method !== 'POST') res.writeHead(405).end();
    else if (req.url === '/1.1/verify-key') res.writeHead(200, { 'content-type': 'text/plain' }).end(valid ? 'valid' : 'invalid');
    else if (req.url === '/1.1/get-stats' && valid) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(statsFor(params.get('from') ?? '6-months')));
    else if (req.url === '/1.1/get-stats') res.writeHead(200, { 'content-type': 'text/plain', 'x-akismet-debug-help': 'Invalid key' }).end('invalid');
    else res.writeHead(404).end();
  }
}

/** A URL nobody listens on: a server is started, its port noted, and it is closed again. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

describe('Akismet client', () => {
  const fake = new FakeAkismet();
  let baseUrl: string;
  let now: number;
  const clock = () => now;

  beforeAll(async () => {
    baseUrl = await fake.start();
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.mode = 'normal';
    fake.requests.length = 0;
    now = 1_700_000_000_000;
  });

  it('reports a valid and an invalid key, posting key and blog as a form', async () => {
    const client = new AkismetClient({ baseUrl, clock });
    expect(await client.verifyKey(GOOD_KEY, BLOG)).toEqual({ ok: true, value: 'valid', cached: false, stale: false });
    expect(await client.verifyKey('wrongkey1234', BLOG)).toMatchObject({ ok: true, value: 'invalid' });
    expect(fake.requests[0].path).toBe('/1.1/verify-key');
    expect(fake.requests[0].params.get('key')).toBe(GOOD_KEY);
    expect(fake.requests[0].params.get('blog')).toBe(BLOG);
  });

  it('returns the stats object of an interval in the reference shape', async () => {
    const client = new AkismetClient({ baseUrl, clock });
    const result = await client.getStats(GOOD_KEY, BLOG, 'all');
    expect(result).toEqual({ ok: true, value: statsFor('all'), cached: false, stale: false });
    expect(fake.requests[0].params.get('from')).toBe('all');
  });

  it('reports stats for a refused key as invalid_key', async () => {
    const client = new AkismetClient({ baseUrl, clock });
    expect(await client.getStats('wrongkey1234', BLOG, '6-months')).toEqual({ ok: false, error: { kind: 'invalid_key' } });
  });

  it('answers from the cache for an hour, then asks again', async () => {
    const client = new AkismetClient({ baseUrl, clock });
    await client.getStats(GOOD_KEY, BLOG, 'all');
    now += HOUR - 1;
    expect(await client.getStats(GOOD_KEY, BLOG, 'all')).toMatchObject({ ok: true, cached: true, stale: false });
    expect(fake.requests).toHaveLength(1);
    now += 1;
    expect(await client.getStats(GOOD_KEY, BLOG, 'all')).toMatchObject({ ok: true, cached: false });
    expect(fake.requests).toHaveLength(2);
  });

  it('reports a service that is down as unavailable', async () => {
    const client = new AkismetClient({ baseUrl: await closedPortUrl(), clock });
    const result = await client.verifyKey(GOOD_KEY, BLOG);
    expect(result).toMatchObject({ ok: false, error: { kind: 'unavailable' } });
  });

  it('serves the expired cached value while the service is down', async () => {
    const client = new AkismetClient({ baseUrl, clock });
    await client.getStats(GOOD_KEY, BLOG, '6-months');
    await fake.stop();
    try {
      now += 2 * HOUR;
      expect(await client.getStats(GOOD_KEY, BLOG, '6-months')).toEqual({ ok: true, value: statsFor('6-months'), cached: true, stale: true });
    } finally {
      baseUrl = await fake.start();
    }
  });

  it('gives up on a service that never answers after the timeout', async () => {
    fake.mode = 'slow';
    const client = new AkismetClient({ baseUrl, clock, timeoutMs: 200 });
    const started = Date.now();
    expect(await client.verifyKey(GOOD_KEY, BLOG)).toEqual({ ok: false, error: { kind: 'timeout', ms: 200 } });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reports a garbage body as a bad response, and serves the stale value if it has one', async () => {
    const client = new AkismetClient({ baseUrl, clock });
    await client.verifyKey(GOOD_KEY, BLOG);
    fake.mode = 'garbage';
    expect(await client.getStats(GOOD_KEY, BLOG, 'all')).toMatchObject({ ok: false, error: { kind: 'bad_response' } });
    now += 2 * HOUR;
    expect(await client.verifyKey(GOOD_KEY, BLOG)).toMatchObject({ ok: true, value: 'valid', stale: true });
  });

  it('builds the akismet/stats/get body: not_installed, invalid_key, or both intervals', async () => {
    const client = new AkismetClient({ baseUrl, clock });
    expect(await akismetStatsAnswer(client, null)).toEqual({ kind: 'body', body: 'not_installed' });
    expect(await akismetStatsAnswer(client, { key: 'wrongkey1234', blog: BLOG })).toMatchObject({ kind: 'body', body: 'invalid_key' });
    expect(await akismetStatsAnswer(client, { key: GOOD_KEY, blog: BLOG })).toEqual({ kind: 'body', body: { '6-months': statsFor('6-months'), all: statsFor('all') } });
  });

  it('answers unavailable, not invalid_key, when the service is down and nothing is cached', async () => {
    const client = new AkismetClient({ baseUrl: await closedPortUrl(), clock });
    expect(await akismetStatsAnswer(client, { key: GOOD_KEY, blog: BLOG })).toMatchObject({ kind: 'unavailable', problem: { kind: 'unavailable' } });
  });
});
