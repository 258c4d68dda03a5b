import { createServer, type Server } from 'node:http';
import { closeServer, listenOnLoopback } from './loopback-server.js';

/**
 * A registry-like server on 127.0.0.1: `packages` maps a name to its latest version; `mode`
 * switches misbehaviour.
 */
export class FakeRegistry {
  mode: 'normal' | 'rate-limited' | 'slow' | 'down' = 'normal';
  retryAfter = '30';
  readonly packages = new Map<string, string>();
  readonly requests: { url: string; accept: string }[] = [];
  private readonly server: Server = createServer((req, res) => {
    this.requests.push({ url: req.url ?? '', accept: String(req.headers.accept) });
    if (this.mode === 'slow') return;
    if (this.mode === 'down') {
      res.writeHead(503).end('Service Unavailable');
      return;
    }
    if (this.mode === 'rate-limited') {
      res.writeHead(429, { 'retry-after': this.retryAfter }).end('Too Many Requests');
      return;
    }
    const name = decodeURIComponent((req.url ?? '/').slice(1));
    const latest = this.packages.get(name);
    if (latest === undefined) res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
    else {
      res.writeHead(200, { 'content-type': 'application/vnd.npm.install-v1+json' });
      res.end(
        JSON.stringify({
          name,
          modified: '2024-01-01T00:00:00.000Z',
          'dist-tags': { latest },
          versions: { [latest]: { name, version: latest } },
        }),
      );
    }
  });

  start(): Promise<string> {
    return listenOnLoopback(this.server);
  }

  stop(): Promise<void> {
    return closeServer(this.server);
  }
}
