import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';
import type { SitewardApi } from '../plugins/api.js';

// Real sockets reach the REST handler before Fastify; these tests send raw requests that the helper's client would frame for them.
let app: TestApp;
let port: number;

function echo(api: SitewardApi): void {
  api.registerRoute('sock/v1', '/echo', {
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    callback: (req) => ({ method: req.method, params: req.params }),
  });
}

beforeAll(async () => {
  app = await createTestApp({ plugins: [echo], env: { SITEWARD_BODY_LIMIT: '4096' } });
  port = (app.app.http.server.address() as { port: number }).port;
});
afterAll(() => app.close());

function call(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    // Node's client sends a GET body without framing unless told its length.
    const framed = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: framed }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

describe('the REST layer on a real socket', () => {
  it('serves the pretty, index and rest_route forms', async () => {
    for (const path of ['/wp-json/sock/v1/echo', '/index.php/wp-json/sock/v1/echo', '/?rest_route=/sock/v1/echo']) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
      expect(JSON.parse(res.text)).toMatchObject({ method: 'GET' });
    }
  });

  it('reads a JSON body sent with GET', async () => {
    const res = await call('GET', '/wp-json/sock/v1/echo', { 'content-type': 'application/json' }, '{"a":1}');
    expect(JSON.parse(res.text)).toMatchObject({ params: { a: 1 } });
  });

  it('answers invalid JSON and an empty JSON body as the REST layer says, never with a framework error', async () => {
    const bad = await call('POST', '/wp-json/sock/v1/echo', { 'content-type': 'application/json' }, '{');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).code).toBe('rest_invalid_json');
    const empty = await call('POST', '/wp-json/sock/v1/echo', { 'content-type': 'application/json', 'content-length': '0' });
    expect(empty.status).toBe(200);
  });

  it('answers an oversized body with a JSON 413', async () => {
    const res = await call(
      'POST',
      '/wp-json/sock/v1/echo',
      { 'content-type': 'application/json' },
      JSON.stringify({ x: 'y'.repeat(10_000) }),
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ code: 'rest_body_too_large', data: { status: 413 } });
  });

  it('reads a chunked body of several pieces, and answers 413 once a chunked body passes the limit', async () => {
    const chunked = (pieces: string[]) =>
      new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, method: 'POST', path: '/wp-json/sock/v1/echo', headers: { 'content-type': 'application/json' } },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, text }));
          },
        );
        req.on('error', reject);
        // No Content-Length: node's client sends each write as one chunk.
        for (const piece of pieces) req.write(piece);
        req.end();
      });
    const small = await chunked(['{"a":', '"b', 'c"}']);
    expect(small.status).toBe(200);
    expect(JSON.parse(small.text)).toMatchObject({ params: { a: 'bc' } });
    const big = await chunked(['{"x":"', 'y'.repeat(3000), 'y'.repeat(3000), '"}']);
    expect(big.status).toBe(413);
    expect(big.connection).toBe('close');
    expect(JSON.parse(big.text)).toMatchObject({ code: 'rest_body_too_large', data: { status: 413 } });
  });

  it('sends no body for HEAD but the same headers', async () => {
    const res = await call('HEAD', '/wp-json/sock/v1/echo');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers.link).toBe('<http://example.org/wp-json/>; rel="https://api.w.org/"');
  });

  it('answers malformed requests in the JSON error layout', async () => {
    const { connect } = await import('node:net');
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(text));
        let out = '';
        socket.on('data', (d) => (out += d.toString()));
        socket.on('end', () => resolve(out));
        socket.on('error', reject);
      });
    const bad = await raw('GET /wp-json/ HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n');
    expect(bad).toMatch(/^HTTP\/1\.1 400/);
    expect(JSON.parse(bad.slice(bad.indexOf('\r\n\r\n') + 4))).toEqual({
      code: 'rest_bad_request',
      message: 'The request could not be parsed.',
      data: { status: 400 },
    });
    const huge = await raw(`GET /wp-json/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431/);
    expect(huge).toContain('"code":"rest_headers_too_large"');
  });

  it('leaves pages to Fastify', async () => {
    const res = await call('GET', '/login');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const missing = await call('GET', '/wp-jsonx/whatever');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text).code).toBe('rest_not_found');
  });
});
