import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect as connectTls } from 'node:tls';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { SitewardApi } from '../plugins/api.js';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';

/** A route that answers only when the test lets it. */
function slowRoute(gate: { release: () => void; arrived: Promise<void> }) {
  let arrive: () => void = () => undefined;
  gate.arrived = new Promise<void>((resolve) => (arrive = resolve));
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  gate.release = release;
  return (api: SitewardApi) => {
    api.registerRoute('slow-test/v1', '/wait', {
      callback: async () => {
        arrive();
        await released;
        return { done: true };
      },
    });
  };
}

/** A raw keep-alive connection: what was received so far, and whether the server closed it. */
function rawConnection(port: number, tls = false): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const ready = () => resolve({ socket, received: () => text, closed });
    const socket: Socket = tls
      ? connectTls({ port, host: '127.0.0.1', rejectUnauthorized: false }, ready)
      : connect(port, '127.0.0.1', ready);
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('error', reject);
  });
}

/** Polls until `check` holds, bounded well inside the test timeout (a loaded machine only makes it slower); the expectations after it say what failed. */
const until = (check: () => boolean) => vi.waitUntil(check, { timeout: 20_000, interval: 5 }).catch(() => undefined);

describe('shutting down', () => {
  let app: TestApp | null = null;
  afterEach(async () => {
    await app?.close().catch(() => undefined);
    app = null;
  });

  const certDir = mkdtempSync(path.join(tmpdir(), 'siteward-shutdown-'));
  afterAll(() => rmSync(certDir, { recursive: true, force: true }));
  /** A self-signed certificate for the TLS case (made once, when first asked). */
  const tlsEnv = (): Record<string, string> => {
    const cert = path.join(certDir, 'cert.pem');
    const key = path.join(certDir, 'key.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'],
      { stdio: 'ignore' },
    );
    return { SITEWARD_TLS_CERT: cert, SITEWARD_TLS_KEY: key };
  };

  it.each([
    ['plain HTTP', false],
    ['TLS', true],
  ])(
    'finishes an in-flight request with Connection: close, and answers a request arriving afterwards with 503 and Connection: close (%s)',
    async (_name, tls) => {
      const gate = { release: () => undefined, arrived: Promise.resolve() } as { release: () => void; arrived: Promise<void> };
      app = await createTestApp({ plugins: [slowRoute(gate)], ...(tls ? { env: tlsEnv() } : {}) });
      const port = (app.app.http.server.address() as { port: number }).port;
      const busy = await rawConnection(port, tls);
      busy.socket.write('GET /wp-json/slow-test/v1/wait HTTP/1.1\r\nHost: example.org\r\n\r\n');
      // A second connection is mid-request (headers not finished) when SIGTERM comes.
      const late = await rawConnection(port, tls);
      late.socket.write('GET /wp-json/ HTTP/1.1\r\nHost: example.org\r\n');
      await gate.arrived;

      const closing = app.app.close();
      // The server stops listening once the close hooks (the gate's included) have run.
      const server = app.app.http.server;
      await until(() => !server.listening);
      late.socket.write('\r\n');
      await until(() => late.received().includes('\r\n\r\n'));
      expect(late.received()).toMatch(/^HTTP\/1\.1 503 /);
      expect(late.received()).toMatch(/\r\nconnection: close\r\n/i);
      expect(late.received()).toMatch(/\r\nretry-after: \d+\r\n/i);
      expect(late.received()).toContain('"code":"siteward_shutting_down"');

      gate.release();
      await until(() => busy.received().includes('"done":true'));
      expect(busy.received()).toMatch(/^HTTP\/1\.1 200 /);
      expect(busy.received()).toMatch(/\r\nconnection: close\r\n/i);
      await busy.closed;
      await closing;
      app = null;
    },
  );

  it('closes connections still open at the deadline instead of waiting for them', async () => {
    const gate = { release: () => undefined, arrived: Promise.resolve() } as { release: () => void; arrived: Promise<void> };
    app = await createTestApp({ plugins: [slowRoute(gate)], env: { SITEWARD_SHUTDOWN_TIMEOUT_MS: '200' } });
    const port = (app.app.http.server.address() as { port: number }).port;
    const stuck = await rawConnection(port);
    stuck.socket.write('GET /wp-json/slow-test/v1/wait HTTP/1.1\r\nHost: example.org\r\n\r\n');
    await gate.arrived;
    // The request never finishes; close() must still return, having cut the connection.
    await app.app.close();
    await stuck.closed;
    app = null;
    gate.release();
  });
});
