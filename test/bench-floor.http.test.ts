// The bench's identical-bytes floor (bench/baseline-server.js, bench/capture.js): the replay
// server must send back exactly the bytes it was given, apart from the Date value, or every
// ratio the bench prints against it is meaningless.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface RawResponse {
  raw: Buffer;
  head: string;
  statusLine: string;
  headers: string[];
  body: Buffer;
}
interface BenchRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}
interface CaptureModule {
  rawExchange(baseUrl: string, req: BenchRequest): Promise<RawResponse>;
  responseDifference(captured: RawResponse, replayed: RawResponse): string | null;
}
interface BaselinesInstance {
  start(): Promise<void>;
  stop(): Promise<void>;
  replayRequests(scenario: { name: string; requests: BenchRequest[] }, responses: RawResponse[]): Promise<BenchRequest[]>;
  readonly url: string;
}
interface MeasureModule {
  Baselines: new () => BaselinesInstance;
}

// The bench is plain JavaScript outside the typed build: load it through a path string and
// give it the shape used here.
const benchModule = (name: string): Promise<unknown> => import(new URL(`../bench/${name}`, import.meta.url).href);

let capture: CaptureModule;
let baselines: BaselinesInstance;
let origin: http.Server;
let originUrl = '';

// A stand-in for Siteward with its kind of head: mixed-case names, a repeated header, a custom
// reason phrase, a Date written by node itself, and a JSON body.
const BODY = JSON.stringify({ code: 'success', message: 'The requested Jetpack module was activated.' });
function answer(res: http.ServerResponse, extra: string): void {
  res.writeHead(201, 'Made It', [
    'Content-Type',
    'application/json; charset=UTF-8',
    'x-lower-case',
    'kept as sent',
    'Set-Cookie',
    'a=1; Path=/',
    'Set-Cookie',
    'b=2; Path=/',
    'X-Extra',
    extra,
    'Content-Length',
    String(Buffer.byteLength(BODY)),
  ]);
  res.end(BODY);
}

beforeAll(async () => {
  capture = (await benchModule('capture.js')) as CaptureModule;
  const { Baselines } = (await benchModule('measure.js')) as MeasureModule;
  origin = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(res, req.url === '/other' ? 'other' : 'first'));
  });
  origin.listen(0, '127.0.0.1');
  await once(origin, 'listening');
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  baselines = new Baselines();
  await baselines.start();
});

afterAll(async () => {
  await baselines?.stop();
  origin?.close();
});

const post: BenchRequest = { method: 'POST', path: '/first', headers: { 'Content-Type': 'application/json' }, body: '{"active":true}' };

describe('the identical-bytes floor', () => {
  it('replays a captured answer byte for byte, only the Date value regenerated', async () => {
    const captured = await capture.rawExchange(originUrl, post);
    expect(captured.statusLine).toBe('HTTP/1.1 201 Made It');
    expect(captured.headers.filter((_, i) => i % 2 === 0)).toEqual([
      'Content-Type',
      'x-lower-case',
      'Set-Cookie',
      'Set-Cookie',
      'X-Extra',
      'Content-Length',
      'Date',
      'Connection',
      'Keep-Alive',
    ]);

    const [replayedRequest] = await baselines.replayRequests({ name: 'post', requests: [post] }, [captured]);
    const replayed = await capture.rawExchange(baselines.url, replayedRequest);

    expect(capture.responseDifference(captured, replayed)).toBeNull();
    expect(replayed.head.split('\r\n').filter((l) => !l.startsWith('Date:'))).toEqual(
      captured.head.split('\r\n').filter((l) => !l.startsWith('Date:')),
    );
    const date = replayed.headers[replayed.headers.indexOf('Date') + 1];
    expect(new Date(date).toUTCString()).toBe(date);
    expect(replayed.body.toString('latin1')).toBe(captured.body.toString('latin1'));
  });

  it('refuses to measure a floor that does not send the captured bytes', async () => {
    const captured = await capture.rawExchange(originUrl, post);
    // What the replay server is told to send (headers, body) no longer matches the bytes
    // captured on the wire: the check before the load must catch it.
    const onTheWire = {
      ...captured,
      raw: Buffer.from(captured.raw.toString('latin1').replace('X-Extra: first', 'X-Extra: FIRST'), 'latin1'),
    };
    await expect(baselines.replayRequests({ name: 'tampered', requests: [post] }, [onTheWire])).rejects.toThrow(
      'tampered: the replay floor does not answer Siteward\'s bytes: head line 6: Siteward sent "X-Extra: FIRST", the replay "X-Extra: first"',
    );
  });

  it('names the first differing header line when two answers differ beyond the Date', async () => {
    const first = await capture.rawExchange(originUrl, post);
    const other = await capture.rawExchange(originUrl, { ...post, path: '/other' });
    expect(capture.responseDifference(first, other)).toBe('head line 6: Siteward sent "X-Extra: first", the replay "X-Extra: other"');
  });
});
