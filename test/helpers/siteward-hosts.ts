import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { within } from './within.js';

/**
 * `siteward start` processes (the built command, as an operator runs it) that share one site:
 * each host gets its own data directory below `dir` and its own process group, so stopping it
 * stops its primary and worker together. For the multi-host tests on one PostgreSQL.
 */
const bin = fileURLToPath(new URL('../../bin/siteward.js', import.meta.url));

export interface Host {
  readonly name: string;
  readonly child: ChildProcess;
  readonly base: string;
  readonly exited: Promise<unknown>;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
}

export interface HostGroup {
  readonly hosts: readonly Host[];
  /** Starts host `name` on `port` and waits (bounded by `startMs`) until `/healthz` answers 200. */
  start(name: string, port: number, extra?: Record<string, string>): Promise<Host>;
  /** Runs a one-shot command (`user create …`) against host `name`'s data directory; throws on failure; returns its stdout. */
  run(name: string, args: readonly string[], timeoutMs: number): string;
  /** SIGTERM to every running host, SIGKILL to any still running after 10 s. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function hostGroup(dir: string, env: Record<string, string>, startMs: number): HostGroup {
  const hosts: Host[] = [];
  const hostEnv = (name: string) => ({ ...env, SITEWARD_DATA_DIR: path.join(dir, name) });
  return {
    hosts,
    async start(name, port, extra = {}) {
      const child = spawn(process.execPath, [bin, 'start'], {
        cwd: dir,
        env: { ...hostEnv(name), ...extra, PORT: String(port) },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise((resolve) => child.on('exit', resolve));
      const host: Host = { name, child, base: `http://127.0.0.1:${port}`, exited, output: () => out };
      hosts.push(host);
      await within(
        startMs,
        () =>
          fetch(`${host.base}/healthz`).then(
            (r) => r.status,
            () => 0,
          ),
        (s) => s === 200,
        `${name} to start (${out})`,
      );
      return host;
    },
    run(name, args, timeoutMs) {
      const done = spawnSync(process.execPath, [bin, ...args], { cwd: dir, env: hostEnv(name), encoding: 'utf8', timeout: timeoutMs });
      if (done.status !== 0) throw new Error(`siteward ${args.join(' ')} failed (${done.status}): ${done.stderr}`);
      return done.stdout;
    },
    async stop() {
      for (const host of hosts) {
        if (host.child.exitCode !== null || host.child.signalCode !== null) continue;
        process.kill(-host.child.pid!, 'SIGTERM');
        const stopped = await Promise.race([host.exited.then(() => true), sleep(10_000).then(() => false)]);
        if (!stopped) process.kill(-host.child.pid!, 'SIGKILL');
      }
    },
  };
}
