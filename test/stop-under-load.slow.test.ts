/**
 * A stop under load, as a load balancer's clients see it: every request sent on a kept-alive
 * connection is answered (200, or 503 siteward_shutting_down with Connection: close), and a new
 * connection after the signal is refused (ECONNREFUSED, safe to retry): never a reset. Before,
 * the server kept accepting during its 503 window and stopped listening at its end, and the
 * clients reconnecting after their 503 then had connections cut with their request unread
 * (ECONNRESET, several per stop); a signal to the process group also killed the worker mid-stop.
 */
import { spawn } from 'node:child_process';
import { Agent, get } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';
import { within } from './helpers/within.js';

const bin = fileURLToPath(new URL('../bin/siteward.js', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'siteward-stop-load-'));
const pids: number[] = [];
afterAll(() => {
  for (const pid of pids)
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  rmSync(dir, { recursive: true, force: true });
});

const CLIENTS = 16;

/** One GET on the client's keep-alive agent: its status, or the error's code. */
function request(agent: Agent, port: number, path: string): Promise<string> {
  return new Promise((resolve) => {
    const req = get({ host: '127.0.0.1', port, path, agent, timeout: 15_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
      res.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('no answer within 15 s'), { code: 'NO_ANSWER' })));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('a stop under load with keep-alive clients', () => {
  it.each([
    ['SIGTERM', 'the process group', 2],
    ['SIGINT', 'the process group', 2],
    ['SIGTERM', 'the primary', 2],
    ['SIGTERM', 'the process group', 1],
  ] as const)(
    '%s to %s (%i worker(s)): every request answered 200 or 503, new connections refused afterwards, 0 resets',
    async (signal, to, workers) => {
      const port = await freePort();
      const child = spawn(process.execPath, [bin, 'start', '--port', String(port), '--workers', String(workers)], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', HOME: dir, SITEWARD_DATA_DIR: path.join(dir, `data-${port}`) },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      pids.push(child.pid!);
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await within(
        60_000,
        async () => (child.exitCode === null ? out : `exited: ${out}`),
        (o) => o.includes('REST API:') || o.startsWith('exited'),
        'the server to start',
      );
      expect(out).toContain('REST API:');

      const before = new Map<string, number>();
      const after = new Map<string, number>();
      let signalled = false;
      const count = (key: string) => {
        const into = signalled ? after : before;
        into.set(key, (into.get(key) ?? 0) + 1);
      };
      // Each client sends one request after the other on its own kept-alive connection, and
      // stops once a new connection is refused (the server stopped listening).
      // Half of them on a page (Fastify's routes), half on the REST API (the REST handler's).
      const clients = Array.from({ length: CLIENTS }, async (_, i) => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        try {
          for (let sent = 0; sent < 100_000; sent++) {
            const result = await request(agent, port, i % 2 === 0 ? '/healthz' : '/wp-json/');
            count(result);
            if (result === 'ECONNREFUSED') return;
          }
        } finally {
          agent.destroy();
        }
      });
      await within(
        60_000,
        async () => before.get('200') ?? 0,
        (n) => n >= 5 * CLIENTS,
        'the load to get going',
      );
      signalled = true;
      process.kill(to === 'the process group' ? -child.pid! : child.pid!, signal);
      await Promise.all(clients);
      expect(await exited, out).toBe(0);

      const seen = Object.fromEntries(after);
      if (process.env.SITEWARD_TEST_VERBOSE) console.log(signal, to, workers, JSON.stringify(seen));
      expect(before.size === 1 && before.has('200'), JSON.stringify(Object.fromEntries(before))).toBe(true);
      // Answers and refusals only: no ECONNRESET, no request left without an answer.
      expect(
        Object.keys(seen).filter((k) => !['200', '503', 'ECONNREFUSED'].includes(k)),
        JSON.stringify(seen),
      ).toEqual([]);
      expect(seen.ECONNREFUSED).toBe(CLIENTS);
    },
    120_000,
  );
});
