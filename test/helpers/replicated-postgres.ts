import { execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';
import { postgresBinDir } from './throwaway-postgres.js';

/**
 * A primary and a streaming standby of the test's own (initdb, then `pg_basebackup -R`), on
 * free loopback ports, with synchronous replication: a commit is acknowledged only once the
 * standby has it. The test stops the primary hard and promotes the standby, as an orchestrator
 * (pg_auto_failover, Patroni) would.
 */
export interface ReplicatedPostgres {
  /** libpq's several-host URL with `target_session_attrs=read-write`. */
  readonly url: string;
  /** Each server alone (`postgres://…:port/postgres`). */
  readonly primaryUrl: string;
  readonly standbyUrl: string;
  /** Immediate shutdown of the primary: no checkpoint, clients' connections cut (a dead machine's server). */
  killPrimary(): void;
  /** `pg_ctl promote` on the standby, waiting until it accepts writes. */
  promoteStandby(): void;
  /**
   * The running primary stops taking writes (`default_transaction_read_only`, reloaded): its
   * pooled connections fail writes with 25006, as a primary demoted under a client does.
   */
  demotePrimary(): void;
  destroy(): void;
}

function run(bin: string, args: string[], timeout = 60_000): string {
  const asRoot = process.getuid?.() === 0;
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  return execFileSync(command, argv, { stdio: 'pipe', timeout, encoding: 'utf8' });
}

export { postgresBinDir };

export async function startReplicatedPostgres(binDir: string): Promise<ReplicatedPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'siteward-pg-ha-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const primary = path.join(dir, 'primary');
  const standby = path.join(dir, 'standby');
  const [p1, p2] = [await freePort(), await freePort()];
  const bin = (name: string) => path.join(binDir, name);
  const pgCtl = (data: string, ...args: string[]) => run(bin('pg_ctl'), ['-D', data, ...args]);
  const common = (port: number) =>
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60 -c wal_level=replica -c max_wal_senders=5 -c hot_standby=on`;

  run(bin('initdb'), ['-D', primary, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  // Synchronous: the primary acknowledges a commit only once a standby has flushed it.
  appendFileSync(primary + '/postgresql.conf', "\nsynchronous_standby_names = '*'\nsynchronous_commit = on\n");
  pgCtl(primary, '-o', common(p1), '-l', path.join(dir, 'primary.log'), '-w', '-t', '30', 'start');
  run(bin('pg_basebackup'), ['-h', '127.0.0.1', '-p', String(p1), '-U', 'postgres', '-D', standby, '-R', '-X', 'stream', '--no-sync']);
  pgCtl(standby, '-o', common(p2), '-l', path.join(dir, 'standby.log'), '-w', '-t', '30', 'start');
  // Wait until the primary sees its synchronous standby, or every commit would hang.
  const psql = (port: number, sql: string) =>
    run(bin('psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-Atc', sql], 10_000).trim();
  const until = Date.now() + 30_000;
  while (psql(p1, "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'") !== '1') {
    if (Date.now() > until) throw new Error('the standby never became synchronous');
    execFileSync('sleep', ['0.2']);
  }
  const single = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url: `postgres://postgres@127.0.0.1:${p1},127.0.0.1:${p2}/postgres?target_session_attrs=read-write`,
    primaryUrl: single(p1),
    standbyUrl: single(p2),
    killPrimary: () => void pgCtl(primary, '-m', 'immediate', '-w', '-t', '30', 'stop'),
    promoteStandby: () => {
      pgCtl(standby, '-w', '-t', '30', 'promote');
      // The promoted server has no standby of its own: it must not wait for one.
      psql(p2, "ALTER SYSTEM SET synchronous_standby_names = ''");
      psql(p2, 'SELECT pg_reload_conf()');
    },
    demotePrimary: () => {
      psql(p1, 'ALTER SYSTEM SET default_transaction_read_only = on');
      psql(p1, 'SELECT pg_reload_conf()');
    },
    destroy() {
      try {
        for (const data of [primary, standby]) {
          if (existsSync(path.join(data, 'postmaster.pid'))) {
            try {
              pgCtl(data, '-m', 'immediate', '-w', 'stop');
            } catch {
              // Already gone.
            }
          }
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
