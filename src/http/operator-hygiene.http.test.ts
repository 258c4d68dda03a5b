import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureSetupToken } from '../auth/setup-token.js';
import type { SitewardApi } from '../plugins/api.js';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';

/** A logger whose lines the test reads back. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

/** A route failing the way a full disk makes every write fail. */
function diskFull(api: SitewardApi): void {
  api.registerRoute('disk-test/v1', '/write', {
    methods: 'POST',
    callback: () => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    },
  });
}

const mode = (file: string) => statSync(file).mode & 0o777;

describe('files, logs and the operator', () => {
  let root: string;
  let dataDir: string;
  let app: TestApp;
  let now = 1_700_000_000_000;
  const captured = capturingLogger();
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'siteward-hygiene-'));
    dataDir = path.join(root, 'data');
    app = await createTestApp({ dataDir, logger: captured.logger, plugins: [diskFull], clock: () => now, env: { LOG_LEVEL: 'debug' } });
  });
  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('creates the data directory 0700 and the database, its WAL and shared memory 0600', async () => {
    await app.request({ method: 'POST', path: '/login', body: { username: 'nobody', password: 'x' } });
    expect(mode(dataDir)).toBe(0o700);
    for (const name of ['siteward.db', 'siteward.db-wal', 'siteward.db-shm']) expect(mode(path.join(dataDir, name)), name).toBe(0o600);
  });

  it('never writes the setup token, nonces or other secret query parameters into the request log', async () => {
    const token = (await ensureSetupToken(app.store))!;
    await app.request({ path: `/setup?token=${token}` });
    await app.request({ path: '/wp-json/?_wpnonce=abc123nonce&api_key=k-secret-1&page=2' });
    await app.request({ path: '/login?redirect_to=%2Fadmin%2F&access_token=t-secret-2' });
    const text = JSON.stringify(captured.lines);
    for (const secret of [token, 'abc123nonce', 'k-secret-1', 't-secret-2']) expect(text).not.toContain(secret);
    const urls = captured.lines.filter((l) => l.msg === 'request').map((l) => String(l.url));
    expect(urls).toContain('/wp-json/?_wpnonce=[redacted]&api_key=[redacted]&page=2');
    expect(urls).toContain('/setup?token=[redacted]');
  });

  it('logs an upload the client abandons at debug, without an error', async () => {
    const before = captured.lines.length;
    const port = (app.app.http.server.address() as { port: number }).port;
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/wp-json/disk-test/v1/write',
        headers: { 'content-type': 'application/json', 'content-length': '50000' },
      });
      req.on('error', () => resolve());
      // Abandoned once the server has the request and reads its body (its listener runs first), not after a guessed delay.
      app.app.http.server.once('request', () => setImmediate(() => req.destroy()));
      req.write('{"a":"');
      req.on('close', () => resolve());
    });
    await vi
      .waitUntil(() => captured.lines.slice(before).some((l) => l.msg === 'client aborted the request body'), {
        timeout: 20_000,
        interval: 10,
      })
      .catch(() => undefined);
    const mine = captured.lines.slice(before);
    expect(mine.find((l) => l.msg === 'client aborted the request body')).toMatchObject({ level: 20 });
    expect(mine.filter((l) => Number(l.level) >= 50)).toEqual([]);
  });

  it('logs a repeated identical store error once per window, then with the count left out', async () => {
    const errorsBefore = captured.lines.filter((l) => Number(l.level) >= 50).length;
    for (let i = 0; i < 200; i++) expect((await app.request({ method: 'POST', path: '/wp-json/disk-test/v1/write' })).status).toBe(500);
    const errors = () => captured.lines.filter((l) => Number(l.level) >= 50).slice(errorsBefore);
    expect(errors()).toHaveLength(1);
    now += 11_000;
    await app.request({ method: 'POST', path: '/wp-json/disk-test/v1/write' });
    expect(errors()).toHaveLength(2);
    expect(errors()[1]).toMatchObject({ suppressed: 199 });
  });
});
