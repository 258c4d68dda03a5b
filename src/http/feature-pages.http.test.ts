/**
 * A feature page answered as byte chunks (PageResponse.body; the admin page's) is written by the
 * adapter rather than by Fastify's send: it must leave exactly as the same page sent as text.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { htmlPage, type Feature } from '../features/contract.js';
import { builtInFeatures } from '../features/index.js';

const TEXT = '<p>Chunks — of a page</p>';

describe('a page answered as byte chunks', () => {
  let app: TestApp;
  const logged: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const pages: Feature = {
      name: 'chunked',
      register(ctx) {
        const headers = { 'X-Page': 'yes' };
        ctx.addPage({ method: 'GET', path: '/as-text', handle: async () => htmlPage(200, TEXT, headers) });
        const chunks = [Buffer.from('<p>Chunks '), Buffer.alloc(0), Buffer.from('— of a page</p>')];
        ctx.addPage({ method: 'GET', path: '/as-chunks', handle: async () => htmlPage(200, chunks, headers) });
      },
    };
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line.trim() !== '') logged.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    app = await createTestApp({
      features: [...builtInFeatures, pages],
      logger: pino({ level: 'info' }, stream),
      env: { SITEWARD_TRUST_PROXY: '1', LOG_LEVEL: 'info' },
    });
  });
  afterAll(() => app.close());

  it('leaves with the same headers in the same order, HSTS and the security headers included, and the same bytes', async () => {
    const headers = { 'x-forwarded-proto': 'https' };
    const asText = await app.request({ path: '/as-text', headers });
    const asChunks = await app.request({ path: '/as-chunks', headers });
    const withoutDate = (h: Record<string, string | undefined>) => Object.entries(h).filter(([name]) => name !== 'date');
    expect(withoutDate(asChunks.headers)).toEqual(withoutDate(asText.headers));
    expect(asChunks.headers['strict-transport-security']).toBeDefined();
    expect(asChunks.headers['content-security-policy']).toContain("script-src 'self'");
    expect(asChunks.headers['content-length']).toBe(String(Buffer.byteLength(TEXT)));
    expect(asChunks.status).toBe(200);
    expect(asChunks.text).toBe(TEXT);
  });

  it('is in the request log like any page', async () => {
    await app.request({ path: '/as-chunks?x=1' });
    expect(logged.filter((l) => l.msg === 'request' && l.url === '/as-chunks?x=1')).toMatchObject([{ method: 'GET', status: 200 }]);
  });
});
