/**
 * The built server (`bin/siteward.js start --workers 2`) in a data directory of its own, on SQLite
 * or a fresh PostgreSQL schema, for the slow tests of truly parallel requests: each request goes on
 * a connection of its own, so the primary spreads them over both workers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { freePort } from './free-port.js';
import { freshPgSchema, type PgSchema } from './pg-schema.js';
import { within } from './within.js';

const bin = fileURLToPath(new URL('../../bin/siteward.js', import.meta.url));

/** The stores these tests run on: SQLite, and PostgreSQL when `SITEWARD_TEST_PG` is set. */
export const serverBackends = [{ name: 'SQLite', pg: false }, ...(process.env.SITEWARD_TEST_PG ? [{ name: 'PostgreSQL', pg: true }] : [])];

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export const JSON_BODY = { 'content-type': 'application/json' } as const;

/** One request on a connection of its own, so the primary spreads them over both workers. */
export function send(port: number, method: string, urlPath: string, headers: Record<string, string>, body = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: urlPath,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
        timeout: 30_000,
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface TwoWorkerServer {
  readonly dir: string;
  readonly port: number;
  /** The PostgreSQL schema the server runs on, or null on SQLite (`<dir>/data/siteward.db`). */
  readonly schema: PgSchema | null;
  /** Runs `siteward <args>` on the server's data and settings; expects exit 0 and answers its output. */
  cli(args: string[]): string;
  /** Starts the server (its own process group) and waits until both workers listen. */
  start(): Promise<void>;
  /** Sends `signal` to the whole process group (primary and workers) and waits for the primary to exit. */
  stop(signal: NodeJS.Signals): Promise<void>;
  /** Logs in through the JSON login: the headers of that administrator's cookie requests (cookie, nonce, JSON body). */
  login(login: string, password: string): Promise<Record<string, string>>;
  /** Stops a running server, drops the schema and removes the directory. */
  close(): Promise<void>;
}

export async function twoWorkerServer(options: { prefix: string; pg: boolean; env?: Record<string, string> }): Promise<TwoWorkerServer> {
  const dir = mkdtempSync(path.join(tmpdir(), options.prefix));
  const schema = options.pg ? await freshPgSchema() : null;
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    PORT: String(port),
    SITEWARD_DATA_DIR: path.join(dir, 'data'),
    SITEWARD_HOME_URL: `http://127.0.0.1:${port}`,
    SITEWARD_SECRET: 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
    ...options.env,
    ...(schema ? { SITEWARD_DATABASE_URL: schema.url } : {}),
  };
  let child: ChildProcess | null = null;
  let exited: Promise<unknown> = Promise.resolve();
  const running = () => child !== null && child.exitCode === null && child.signalCode === null;
  const stop = async (signal: NodeJS.Signals) => {
    if (running()) process.kill(-child!.pid!, signal);
    await exited;
  };
  return {
    dir,
    port,
    schema,
    cli(args) {
      const run = spawnSync(process.execPath, [bin, ...args], { cwd: dir, env, encoding: 'utf8', timeout: 30_000 });
      expect(run.status, run.stderr).toBe(0);
      return run.stdout.trim();
    },
    async start() {
      const started = spawn(process.execPath, [bin, 'start', '--workers', '2'], {
        cwd: dir,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      let out = '';
      started.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      started.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      exited = new Promise((resolve) => started.on('exit', resolve));
      await within(
        60_000,
        async () => out,
        (o) => o.includes('with 2 workers'),
        'both workers to listen',
      );
    },
    stop,
    async login(login, password) {
      const answer = await send(port, 'POST', '/login', JSON_BODY, JSON.stringify({ username: login, password }));
      expect(answer.status, answer.text).toBe(200);
      const cookie = String(answer.headers['set-cookie']).split(';')[0]!;
      return { cookie, 'x-wp-nonce': (JSON.parse(answer.text) as { nonce: string }).nonce, ...JSON_BODY };
    },
    async close() {
      await stop('SIGTERM');
      await schema?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
