import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore, SQLITE_FILE } from '../store/index.js';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';

/** Sends raw request bytes on a fresh connection and returns the whole answer. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    socket.on('data', (c: Buffer) => (out += c.toString('utf8')));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('HTTP details', () => {
  let app: TestApp;
  let port: number;
  beforeAll(async () => {
    app = await createTestApp();
    port = (app.app.http.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());

  it('routes an absolute-form REST request target like the origin form', async () => {
    const answer = await rawRequest(port, 'GET http://example.org/wp-json/ HTTP/1.1\r\nHost: example.org\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"namespaces"');
  });

  it('routes an absolute-form page request target too', async () => {
    const answer = await rawRequest(port, 'GET http://example.org/login HTTP/1.1\r\nHost: example.org\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('name="log"');
  });

  it('answers HEAD on REST with the Content-Length the GET would have', async () => {
    const get = await app.request({ path: '/wp-json/' });
    const head = await app.request({ method: 'HEAD', path: '/wp-json/' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(get.text));
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
  });
});

describe('the SQLite write-ahead log', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'siteward-wal-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is checkpointed and truncated periodically, so it does not keep its size', async () => {
    const store = await openStore({ dataDir: dir, walCheckpointMs: 100 });
    try {
      const wal = path.join(dir, `${SQLITE_FILE}-wal`);
      for (let i = 0; i < 300; i++) await store.options.set(`wal_test_${i}`, 'x'.repeat(2000));
      let size = statSync(wal).size;
      expect(size).toBeGreaterThan(0);
      // The checkpoint runs on its timer: poll (bounded) rather than guess how soon a loaded machine runs it.
      await vi.waitUntil(() => (size = statSync(wal).size) === 0, { timeout: 20_000, interval: 20 }).catch(() => undefined);
      expect(size).toBe(0);
    } finally {
      await store.close();
    }
  });
});
