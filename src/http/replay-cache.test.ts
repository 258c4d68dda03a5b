import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { ReplayCache } from './replay-cache.js';

const stamp = { version: '1.1', until: Number.MAX_SAFE_INTEGER };

function req(method: string, rawHeaders: string[], opts: { url?: string; tls?: boolean } = {}): IncomingMessage {
  return { method, url: opts.url ?? '/wp-json/x', rawHeaders, socket: { encrypted: opts.tls === true } } as unknown as IncomingMessage;
}

describe('the answers kept for repeats', () => {
  test('are keyed by every byte of the request line and headers, and by TLS', () => {
    const base = ReplayCache.keyOf(req('GET', ['Host', 'a', 'Cookie', 'c=1']));
    const others = [
      ReplayCache.keyOf(req('GET', ['Host', 'a', 'Cookie', 'c=2'])),
      ReplayCache.keyOf(req('GET', ['host', 'a', 'Cookie', 'c=1'])),
      ReplayCache.keyOf(req('GET', ['Cookie', 'c=1', 'Host', 'a'])),
      ReplayCache.keyOf(req('GET', ['Host', 'a', 'Cookie', 'c=1'], { tls: true })),
      ReplayCache.keyOf(req('GET', ['Host', 'a', 'Cookie', 'c=1'], { url: '/wp-json/x?y' })),
      ReplayCache.keyOf(req('OPTIONS', ['Host', 'a', 'Cookie', 'c=1'])),
      // A value moved into the next name must not read the same.
      ReplayCache.keyOf(req('GET', ['Host', 'a\nCookie', 'c=1', ''])),
    ];
    expect(base).toBeDefined();
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
    expect(ReplayCache.keyOf(req('GET', ['Host', 'a', 'Cookie', 'c=1']))).toBe(base);
  });

  test('are only for GET and OPTIONS requests that carry no body', () => {
    for (const method of ['POST', 'HEAD', 'PUT', 'DELETE']) expect(ReplayCache.keyOf(req(method, ['Host', 'a']))).toBeUndefined();
    expect(ReplayCache.keyOf(req('GET', ['Host', 'a', 'Content-Length', '3']))).toBeUndefined();
    expect(ReplayCache.keyOf(req('GET', ['Host', 'a', 'transfer-encoding', 'chunked']))).toBeUndefined();
    expect(ReplayCache.keyOf(req('GET', ['Host', 'a', 'Content-Length', '0']))).toBeDefined();
  });

  test('stay within their entry and byte budgets, the oldest going first', () => {
    const cache = new ReplayCache(64 * 1024, 4);
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, 200, ['A', 'b'], Buffer.alloc(100), stamp);
    expect(cache.size().entries).toBe(4);
    expect(cache.get('k9')).toBeDefined();
    expect(cache.get('k5')).toBeUndefined();
    for (let i = 0; i < 40; i++) cache.set(`big${i}`, 200, [], Buffer.alloc(5000), stamp);
    expect(cache.size().bytes).toBeLessThanOrEqual(64 * 1024);
    // Larger than an eighth of the budget: not kept at all.
    cache.set('huge', 200, [], Buffer.alloc(9000), stamp);
    expect(cache.get('huge')).toBeUndefined();
    cache.delete('big39');
    expect(cache.get('big39')).toBeUndefined();
  });
});
