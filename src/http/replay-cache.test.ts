import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { ReplayCache } from './replay-cache.js';

const stamp = { version: '1.1', until: Number.MAX_SAFE_INTEGER, routes: 1 };
const TARGET = '/wp-json/x';

function req(method: string, rawHeaders: string[], opts: { tls?: boolean } = {}): IncomingMessage {
  return { method, rawHeaders, socket: { encrypted: opts.tls === true } } as unknown as IncomingMessage;
}

/** Keeps an answer for `kept` and tells which of `asked` find it. */
function found(kept: IncomingMessage, asked: IncomingMessage[], target = TARGET): boolean[] {
  const cache = new ReplayCache();
  cache.set(kept, TARGET, 200, ['A', 'b'], Buffer.from('x'), stamp);
  return asked.map((r) => cache.find(r, target) !== undefined);
}

describe('the answers kept for repeats', () => {
  test('are found only by a request with the same method, target, TLS and every header byte', () => {
    const kept = req('GET', ['Host', 'a', 'Cookie', 'c=1']);
    expect(found(kept, [req('GET', ['Host', 'a', 'Cookie', 'c=1'])])).toEqual([true]);
    expect(
      found(kept, [
        req('GET', ['Host', 'a', 'Cookie', 'c=2']),
        req('GET', ['host', 'a', 'Cookie', 'c=1']),
        req('GET', ['Cookie', 'c=1', 'Host', 'a']),
        req('GET', ['Host', 'a', 'Cookie', 'c=1', 'X', '']),
        req('GET', ['Host', 'a', 'Cookie', 'c=1'], { tls: true }),
        req('OPTIONS', ['Host', 'a', 'Cookie', 'c=1']),
      ]),
    ).toEqual([false, false, false, false, false, false]);
    expect(found(kept, [req('GET', ['Host', 'a', 'Cookie', 'c=1'])], '/wp-json/x?y')).toEqual([false]);
  });

  test('are kept only for GET and OPTIONS requests that carry no body', () => {
    for (const method of ['POST', 'HEAD', 'PUT', 'DELETE']) expect(ReplayCache.keepable(req(method, ['Host', 'a']))).toBe(false);
    expect(ReplayCache.keepable(req('GET', ['Host', 'a', 'Content-Length', '3']))).toBe(false);
    expect(ReplayCache.keepable(req('GET', ['Host', 'a', 'transfer-encoding', 'chunked']))).toBe(false);
    expect(ReplayCache.keepable(req('GET', ['Host', 'a', 'Content-Length', '0']))).toBe(true);
    expect(ReplayCache.keepable(req('OPTIONS', ['Host', 'a']))).toBe(true);
  });

  test('stay within their entry and byte budgets, the oldest going first', () => {
    const cache = new ReplayCache(64 * 1024, 4);
    const asking = (i: number) => req('GET', ['Host', `h${i}`]);
    for (let i = 0; i < 10; i++) cache.set(asking(i), TARGET, 200, ['A', 'b'], Buffer.alloc(100), stamp);
    expect(cache.size().entries).toBe(4);
    expect(cache.find(asking(9), TARGET)).toBeDefined();
    expect(cache.find(asking(5), TARGET)).toBeUndefined();
    for (let i = 0; i < 40; i++) cache.set(asking(100 + i), `/t${i}`, 200, [], Buffer.alloc(5000), stamp);
    expect(cache.size().bytes).toBeLessThanOrEqual(64 * 1024);
    // Larger than an eighth of the budget: not kept at all.
    cache.set(asking(1000), TARGET, 200, [], Buffer.alloc(9000), stamp);
    expect(cache.find(asking(1000), TARGET)).toBeUndefined();
    const last = cache.find(asking(139), '/t39')!;
    cache.delete(last);
    expect(cache.find(asking(139), '/t39')).toBeUndefined();
  });

  test('keep at most 16 answers for one target, and one per distinct request', () => {
    const cache = new ReplayCache();
    for (let i = 0; i < 40; i++) cache.set(req('GET', ['Cookie', `u${i}`]), TARGET, 200, [], Buffer.alloc(10), stamp);
    expect(cache.size().entries).toBe(16);
    expect(cache.find(req('GET', ['Cookie', 'u39']), TARGET)).toBeDefined();
    expect(cache.find(req('GET', ['Cookie', 'u23']), TARGET)).toBeUndefined();
    const before = cache.size();
    cache.set(req('GET', ['Cookie', 'u39']), TARGET, 200, [], Buffer.alloc(10), stamp);
    expect(cache.size()).toEqual(before);
  });
});
