/**
 * An Akismet speaking the REST protocol (`POST /1.1/verify-key`, `/1.1/get-stats`, form-encoded)
 * on a real socket on 127.0.0.1 port 0. It accepts one key for one blog and records what it is
 * asked; `mode` makes it misbehave, `spam` is the all-time spam count it reports.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listenOnLoopback } from './loopback-server.js';

/** `down`: 503; `slow`: never answers; `rate-limited`: 429; `garbage`: a proxy's HTML page with a 200. */
export type FakeAkismetMode = 'normal' | 'down' | 'slow' | 'rate-limited' | 'garbage';

/** The `get-stats` object it answers for an interval, as the real service words it. */
export function fakeAkismetStats(from: string, spam = 1234): Record<string, unknown> {
  const all = from === 'all';
  return {
    spam: all ? spam : 40,
    ham: 56,
    missed_spam: 0,
    false_positives: 1,
    accuracy: 99.92,
    time_saved: 7200,
    breakdown: {
      [all ? '2016' : '2016-08']: { spam: 40, ham: 5, missed_spam: 0, false_positives: 1, da: all ? '2016-01-01' : '2016-08-01' },
    },
  };
}

export class FakeAkismet {
  mode: FakeAkismetMode = 'normal';
  /** All-time spam; the `6-months` interval answers 40. */
  spam = 1234;
  readonly requests: { path: string; params: URLSearchParams }[] = [];
  private readonly server: Server = createServer((req, res) => void this.handle(req, res));

  /** `key` may change (a key revoked at the service). */
  constructor(
    public key: string,
    readonly blog: string,
  ) {}

  /** Its base URL. */
  start(): Promise<string> {
    return listenOnLoopback(this.server);
  }

  stop(): Promise<void> {
    return closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const params = new URLSearchParams(text);
    this.requests.push({ path: req.url ?? '', params });
    switch (this.mode) {
      case 'slow':
        return;
      case 'down':
        return void res.writeHead(503).end('Service Unavailable');
      case 'rate-limited':
        return void res.writeHead(429, { 'retry-after': '60' }).end('Too Many Requests');
      case 'garbage':
        return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>502 from a proxy</html>');
      case 'normal':
        break;
    }
    const valid = (params.get('key') ?? params.get('api_key')) === this.key && params.get('blog') === this.blog;
    if (req.method !== 'POST') res.writeHead(405).end();
    else if (req.url === '/1.1/verify-key') res.writeHead(200, { 'content-type': 'text/plain' }).end(valid ? 'valid' : 'invalid');
    else if (req.url === '/1.1/get-stats' && valid)
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(fakeAkismetStats(params.get('from') ?? '6-months', this.spam)));
    else if (req.url === '/1.1/get-stats')
      res.writeHead(200, { 'content-type': 'text/plain', 'x-akismet-debug-help': 'Invalid key' }).end('invalid');
    else res.writeHead(404).end();
  }
}
