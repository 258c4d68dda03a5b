import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { REPLAY_BODIES_SEEN, REPLAY_REQUEST_BODY_BYTES, ReplayCache } from './replay-cache.js';

const stamp = { version: '1.1', until: Number.MAX_SAFE_INTEGER, routes: 1 };
const TARGET = '/wp-json/x';

function req(method: string, rawHeaders: string[], opts: { tls?: boolean } = {}): IncomingMessage {
  return { method, rawHeaders, socket: { encrypted: opts.tls === true } } as unknown as IncomingMessage;
}

/** Offers the answer to a write refused for its body twice: an answer to a body is kept the second time it comes. */
function keepForBody(cache: ReplayCache, ...args: Parameters<ReplayCache['set']>): void {
  cache.set(...args);
  cache.set(...args);
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

  test('keep an Authorization header only as a hash of it, and are found by the same header only', () => {
    const secret = 'Basic YWRtaW46QUJDRGFiY2QxMjM0RUZHSGVmZ2g1Njc4';
    const cache = new ReplayCache();
    cache.set(req('GET', ['Host', 'a', 'Authorization', secret]), TARGET, 200, ['A', 'b'], Buffer.from('x'), stamp);
    const entry = cache.find(req('GET', ['Host', 'a', 'Authorization', secret]), TARGET);
    expect(entry).toBeDefined();
    expect(entry!.rawHeaders.join('\n')).not.toContain(secret);
    expect(entry!.rawHeaders.join('\n')).not.toContain(secret.slice(6));
    expect(cache.find(req('GET', ['Host', 'a', 'Authorization', `${secret.slice(0, -1)}9`]), TARGET)).toBeUndefined();
    expect(cache.find(req('GET', ['Host', 'a', 'authorization', secret]), TARGET)).toBeUndefined();
  });

  test('are kept under the head of a GET or OPTIONS without a body, and with the body of a small write', () => {
    for (const method of ['HEAD', 'TRACE', 'CONNECT']) expect(ReplayCache.keepable(req(method, ['Host', 'a']))).toBe(null);
    expect(ReplayCache.keepable(req('GET', ['Host', 'a', 'Content-Length', '3']))).toBe(null);
    expect(ReplayCache.keepable(req('GET', ['Host', 'a', 'transfer-encoding', 'chunked']))).toBe(null);
    expect(ReplayCache.keepable(req('GET', ['Host', 'a', 'Content-Length', '0']))).toBe('head');
    expect(ReplayCache.keepable(req('OPTIONS', ['Host', 'a']))).toBe('head');
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(ReplayCache.keepable(req(method, ['Host', 'a']))).toBe('head');
      expect(ReplayCache.keepable(req(method, ['Host', 'a', 'content-length', '12']))).toBe('body');
      expect(ReplayCache.keepable(req(method, ['Host', 'a', 'Content-Length', String(REPLAY_REQUEST_BODY_BYTES)]))).toBe('body');
      expect(ReplayCache.keepable(req(method, ['Host', 'a', 'Content-Length', String(REPLAY_REQUEST_BODY_BYTES + 1)]))).toBe(null);
      expect(ReplayCache.keepable(req(method, ['Host', 'a', 'Transfer-Encoding', 'chunked']))).toBe(null);
    }
  });

  test('kept with a request body are found only by the same body, and tell its length to a request of the same head', () => {
    const cache = new ReplayCache();
    const head = () => req('POST', ['Host', 'a', 'Content-Length', '7']);
    keepForBody(cache, head(), TARGET, 400, ['A', 'b'], Buffer.from('refused'), stamp, Buffer.from('{"a":1}'));
    expect(cache.find(head(), TARGET, Buffer.from('{"a":1}'))).toBeDefined();
    expect(cache.find(head(), TARGET, Buffer.from('{"a":2}'))).toBeUndefined();
    expect(cache.find(head(), TARGET)).toBeUndefined();
    expect(cache.findHead(head(), TARGET)?.requestBody.length).toBe(7);
    expect(cache.findHead(req('POST', ['Host', 'b', 'Content-Length', '7']), TARGET)).toBeUndefined();
    expect(cache.findHead(req('PUT', ['Host', 'a', 'Content-Length', '7']), TARGET)).toBeUndefined();
    // The body is counted in the budget, and kept as a copy of the bytes it was given.
    const body = Buffer.from('{"a":3}');
    const before = cache.size().bytes;
    keepForBody(cache, head(), TARGET, 400, [], Buffer.alloc(0), stamp, body);
    expect(cache.size().bytes - before).toBeGreaterThanOrEqual(7);
    body.write('{"a":4}');
    expect(cache.find(head(), TARGET, Buffer.from('{"a":3}'))).toBeDefined();
  });

  test('given the entry found by the head, answer it for its own body only, and only while it is still kept', () => {
    const cache = new ReplayCache();
    const head = () => req('POST', ['Host', 'a', 'Content-Length', '7']);
    keepForBody(cache, head(), TARGET, 400, ['A', 'b'], Buffer.from('one'), stamp, Buffer.from('{"a":1}'));
    keepForBody(cache, head(), TARGET, 400, ['A', 'b'], Buffer.from('two'), stamp, Buffer.from('{"a":2}'));
    const sameHead = cache.findHead(head(), TARGET)!;
    const other = sameHead.body.toString() === 'one' ? '{"a":2}' : '{"a":1}';
    // Another body under the same head is still found among the other entries.
    expect(cache.find(head(), TARGET, Buffer.from(other), sameHead)?.requestBody.toString()).toBe(other);
    expect(cache.find(head(), TARGET, Buffer.from('{"a":3}'), sameHead)).toBeUndefined();
    // Dropped meanwhile (the body is read after the head was matched): not answered.
    cache.delete(sameHead);
    expect(cache.find(head(), TARGET, sameHead.requestBody, sameHead)).toBeUndefined();
  });

  test('kept for bodies that differ under one head are each found by their own body, with their own answer', () => {
    const cache = new ReplayCache();
    const head = () => req('POST', ['Host', 'a', 'Authorization', 'Basic dTpw', 'Content-Length', '7']);
    keepForBody(cache, head(), TARGET, 400, ['A', 'b'], Buffer.from('refused'), stamp, Buffer.from('{"a":1}'));
    keepForBody(cache, head(), TARGET, 400, ['A', 'b'], Buffer.from('refused'), stamp, Buffer.from('{"a":2}'));
    keepForBody(cache, head(), TARGET, 422, ['A', 'c'], Buffer.from('other'), stamp, Buffer.from('{"a":3}'));
    keepForBody(
      cache,
      req('POST', ['Host', 'b', 'Content-Length', '7']),
      TARGET,
      400,
      ['A', 'b'],
      Buffer.from('refused'),
      stamp,
      Buffer.from('{"a":4}'),
    );
    const answer = (r: IncomingMessage, body: string) => {
      const entry = cache.find(r, TARGET, Buffer.from(body));
      return entry && [entry.status, entry.headers, entry.body.toString()];
    };
    expect(answer(head(), '{"a":1}')).toEqual([400, ['A', 'b'], 'refused']);
    expect(answer(head(), '{"a":2}')).toEqual([400, ['A', 'b'], 'refused']);
    expect(answer(head(), '{"a":3}')).toEqual([422, ['A', 'c'], 'other']);
    expect(answer(head(), '{"a":4}')).toBeUndefined();
    expect(answer(req('POST', ['Host', 'b', 'Content-Length', '7']), '{"a":4}')).toEqual([400, ['A', 'b'], 'refused']);
    expect(answer(req('POST', ['Host', 'b', 'Content-Length', '7']), '{"a":1}')).toBeUndefined();
    // The Authorization value is still kept as its hash only, and found by the same value only.
    expect(answer(req('POST', ['Host', 'a', 'Authorization', 'Basic dTpx', 'Content-Length', '7']), '{"a":2}')).toBeUndefined();
    expect(cache.find(head(), TARGET, Buffer.from('{"a":2}'))!.rawHeaders).not.toContain('Basic dTpw');
  });

  test('keep the answer to a refused body the second time that body comes while it is among the last bodies seen, not the first', () => {
    const cache = new ReplayCache();
    const head = () => req('POST', ['Host', 'a', 'Content-Length', '7']);
    const offer = (body: string) => cache.set(head(), TARGET, 400, ['A', 'b'], Buffer.from('refused'), stamp, Buffer.from(body));
    offer('{"a":1}');
    expect(cache.find(head(), TARGET, Buffer.from('{"a":1}'))).toBeUndefined();
    expect(cache.findHead(head(), TARGET)).toBeUndefined();
    offer('{"a":1}');
    expect(cache.find(head(), TARGET, Buffer.from('{"a":1}'))).toBeDefined();
    // Another target's same body is another request.
    cache.set(head(), '/wp-json/y', 400, [], Buffer.from('refused'), stamp, Buffer.from('{"a":1}'));
    expect(cache.find(head(), '/wp-json/y', Buffer.from('{"a":1}'))).toBeUndefined();
    // A body that came once and was pushed out of the ring by as many others comes as new.
    offer('{"a":2}');
    for (let i = 0; i < REPLAY_BODIES_SEEN; i++) offer(`{"b":${i}}`);
    offer('{"a":2}');
    expect(cache.find(head(), TARGET, Buffer.from('{"a":2}'))).toBeUndefined();
    offer('{"a":2}');
    expect(cache.find(head(), TARGET, Buffer.from('{"a":2}'))).toBeDefined();
    // Answers without a body are kept the first time.
    cache.set(req('GET', ['Host', 'a']), TARGET, 200, [], Buffer.from('x'), stamp);
    expect(cache.find(req('GET', ['Host', 'a']), TARGET)).toBeDefined();
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
