/**
 * An Akismet speaking the REST protocol (`POST /1.1/verify-key`, `/1.1/get-stats`, form-encoded)
 * on a real socket on 127.0.0.1 port 0. It accepts one key for one blog; `mode` makes it
 * misbehave, `spam` is the all-time spam count it reports.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeAkismetMode = 'normal' | 'down' | 'slow' | 'rate-limited';

/** The stats object it answers (`get-stats`), as the real service words it. */
export const fakeAkismetStats = (spam: number) => ({ spam, ham: 56, missed_spam: 0, false_positives: 1, accuracy: 99.92, time_saved: 7200, breakdown: {} });

export class FakeAkismet {
  mode: FakeAkismetMode = 'normal';
  /** All-time spam; the `6-months` interval answers 40. */
  spam = 1234;
  url = '';
  private readonly server: Server;

  constructor(
    readonly key: string,
    readonly blog: string,
  ) {
    this.server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        if (this.mode === 'slow') return;
        if (this.mode === 'down') return void res.writeHead(503).end('Service Unavailable');
        if (this.mode === 'rate-limited') return void res.writeHead(429, { 'retry-after': '60' }).end('Too Many Requests');
        const params = new URLSearchParams(text);
        const valid = params.get('key') === this.key && params.get('blog') === this.blog;
        if (req.url === '/1.1/verify-key') res.writeHead(200).end(valid ? 'valid' : 'invalid');
        else if (req.url === '/1.1/get-stats')
          res.writeHead(200, { 'content-type': 'application/json' }).end(valid ? JSON.stringify(fakeAkismetStats(params.get('from') === 'all' ? this.spam : 40)) : 'invalid');
        else res.writeHead(404).end();
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
