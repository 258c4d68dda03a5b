/**
 * A `StreamedResponse` over a real socket: its chunks are asked for only as fast as the client
 * reads (backpressure), and a client that goes away ends the stream (its `finally` runs) instead
 * of it being made to the end into memory.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';
import type { SitewardApi } from '../plugins/api.js';
import { StreamedResponse } from '../rest/types.js';

const CHUNK = Buffer.alloc(64 * 1024, 'x');
const CHUNKS = 2000; // 125 MiB

let made = 0;
let received = 0;
let maxAhead = 0;
let ended: () => void = () => undefined;

async function* chunks(): AsyncGenerator<Buffer> {
  try {
    for (let i = 0; i < CHUNKS; i++) {
      made += 1;
      maxAhead = Math.max(maxAhead, made * CHUNK.length - received);
      // An await per chunk, as a store read has: without backpressure nothing would stop the loop.
      await Promise.resolve();
      yield CHUNK;
    }
  } finally {
    ended();
  }
}

function streamPlugin(api: SitewardApi): void {
  api.registerRoute('test/v1', '/stream', {
    methods: 'GET',
    permissionCallback: () => true,
    callback: () => new StreamedResponse(chunks(), 200, { 'Content-Type': 'application/octet-stream' }),
  });
}

describe('a streamed REST answer', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ plugins: [streamPlugin], startJobs: false });
    port = (t.app.http.server.address() as { port: number }).port;
  });
  afterAll(() => t.close());

  function open(onData: (chunk: Buffer, destroy: () => void) => void): Promise<{ status: number; headers: Record<string, unknown> }> {
    made = 0;
    received = 0;
    maxAhead = 0;
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/wp-json/test/v1/stream', agent: false }, (res) => {
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          onData(chunk, () => res.destroy());
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
        res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('is made only as fast as the client reads it', async () => {
    const done = new Promise<void>((resolve) => (ended = resolve));
    const res = await open(() => undefined);
    await done;
    expect(res.status).toBe(200);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(received).toBe(CHUNKS * CHUNK.length);
    // Socket buffers on both sides hold a few MB at most; without backpressure all 125 MiB would be made at once.
    expect(maxAhead).toBeLessThan(32 * 1024 * 1024);
  });

  it('answers HEAD with the head alone, without making the body', async () => {
    made = 0;
    const head = await new Promise<{ status: number; headers: Record<string, unknown>; bytes: number }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'HEAD', path: '/wp-json/test/v1/stream', agent: false }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(head).toMatchObject({ status: 200, bytes: 0 });
    expect(head.headers['content-type']).toBe('application/octet-stream');
    expect(made).toBe(0);
  });

  it('stops being made when the client goes away', async () => {
    const done = new Promise<void>((resolve) => (ended = resolve));
    await open((_, destroy) => {
      if (received >= 1024 * 1024) destroy();
    });
    await done;
    expect(made).toBeLessThan(CHUNKS / 2);
  });
});
