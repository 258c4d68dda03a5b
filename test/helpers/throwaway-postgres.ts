import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

/**
 * A PostgreSQL cluster of the test's own (initdb into a temp directory, on a free loopback
 * port), which the test may stop, restart, freeze and thaw without touching any shared server.
 */
export interface ThrowawayPostgres {
  readonly url: string;
  /** Stops the server (fast shutdown: clients see their connections terminated). */
  stop(): void;
  start(): void;
  /** SIGSTOP on every process of the cluster: it accepts TCP connections and answers nothing. */
  freeze(): void;
  thaw(): void;
  destroy(): void;
}

/** The directory of initdb/pg_ctl, or null when PostgreSQL's server binaries are not installed. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  for (const version of readdirSync(root).sort().reverse()) {
    const bin = path.join(root, version, 'bin');
    if (existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

/** initdb refuses to run as root: then the cluster belongs to the `postgres` OS user. */
function run(bin: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  execFileSync(command, argv, { stdio: 'pipe', timeout: 30_000 });
}

export async function startThrowawayPostgres(binDir: string): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'siteward-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  const port = await freePort();
  run(path.join(binDir, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const pgCtl = path.join(binDir, 'pg_ctl');
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`;
  const start = () => run(pgCtl, ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', '-t', '20', 'start']);
  const pids = (): number[] => {
    const postmaster = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
      .split('\n')
      .map(Number)
      .filter((n) => n > 0);
    return [postmaster, ...children];
  };
  const signal = (name: NodeJS.Signals) => {
    for (const pid of pids()) process.kill(pid, name);
  };
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => run(pgCtl, ['-D', data, '-m', 'fast', '-w', '-t', '20', 'stop']),
    start,
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    destroy() {
      try {
        if (existsSync(path.join(data, 'postmaster.pid'))) {
          signal('SIGCONT');
          run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
