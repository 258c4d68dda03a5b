import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';
import { within } from './helpers/within.js';

// The built command (`npm run build:server`), run as an operator would.
const bin = fileURLToPath(new URL('../bin/siteward.js', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'siteward-keepalive-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A raw keep-alive connection: everything received, and how it ended. */
function keepAlive(port: number): Promise<{ socket: Socket; received: () => string; ended: Promise<string> }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => resolve({ socket, received: () => text, ended }));
    const ended = new Promise<string>((done) => {
      socket.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
      socket.on('close', () => done('closed'));
    });
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.once('error', reject);
  });
}

const REQUEST = 'GET /wp-json/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n';

describe('SIGTERM with keep-alive clients connected', () => {
  it('answers requests sent afterwards on their open connections with 503 siteward_shutting_down and Connection: close, never a reset', async () => {
    const port = await freePort();
    const env = { PATH: process.env.PATH ?? '', HOME: dir, SITEWARD_DATA_DIR: path.join(dir, 'data') };
    const child = spawn(process.execPath, [bin, 'start', '--port', String(port)], { cwd: dir, env });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let out = '';
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => ((out += d.toString()).includes('REST API:') ? resolve() : undefined)),
    );

    // Eight connections, each idle after one answered request.
    const connections = await Promise.all(Array.from({ length: 8 }, () => keepAlive(port)));
    for (const c of connections) c.socket.write(REQUEST);
    for (const c of connections) while (!/\r\n\r\n[\s\S]*"namespaces"/.test(c.received())) await new Promise((r) => setTimeout(r, 10));
    for (const c of connections) expect(c.received()).toMatch(/^HTTP\/1\.1 200 /);

    child.kill('SIGTERM');
    // The primary passes the signal on; the worker says so as it starts closing (src/cluster.ts).
    await within(
      60_000,
      async () => out,
      (o) => o.includes('shutting down: finishing in-flight requests'),
      'the worker to start closing',
    );
    const before = connections.map((c) => c.received().length);
    for (const c of connections) c.socket.write(REQUEST);
    const endings = await Promise.all(connections.map((c) => c.ended));
    expect(endings).toEqual(Array(8).fill('closed'));
    for (const [i, c] of connections.entries()) {
      const second = c.received().slice(before[i]);
      expect(second).toMatch(/^HTTP\/1\.1 503 /);
      expect(second).toMatch(/\r\nconnection: close\r\n/i);
      expect(second).toContain('"code":"siteward_shutting_down"');
    }
    expect(await exited).toBe(0);
  }, 120_000);
});
