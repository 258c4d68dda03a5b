/** A webhook receiver for tests: a node:http server on 127.0.0.1 that keeps every JSON body it gets, in order. */
import { createServer } from 'node:http';
import { closeServer, listenOnLoopback } from './loopback-server.js';

export interface WebhookReceiver {
  /** The URL to post to. */
  readonly url: string;
  /** Every body received so far. */
  readonly bodies: Record<string, unknown>[];
  /** The next body not yet taken by an earlier `next()` (resolves at once when one is waiting). */
  next(): Promise<Record<string, unknown>>;
  /** Forgets what was received (a test starting afresh). */
  clear(): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const bodies: Record<string, unknown>[] = [];
  let taken = 0;
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      bodies.push(JSON.parse(text) as Record<string, unknown>);
      res.statusCode = 204;
      res.end();
      waiters.shift()?.();
    });
  });
  const base = await listenOnLoopback(server);
  return {
    url: `${base}/hook`,
    bodies,
    async next() {
      if (taken >= bodies.length) await new Promise<void>((resolve) => waiters.push(resolve));
      return bodies[taken++]!;
    },
    clear() {
      bodies.length = 0;
      taken = 0;
    },
    close: () => closeServer(server),
  };
}
