import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Who holds a Protect check slot: host (with its PID namespace), process id and, on Linux, the
 * process's start time, so that another process on the same host can tell that the holder died
 * (kill -9, OOM) and stop counting its slots at once instead of after the reservation's
 * time-to-live. Holders on other hosts cannot be checked from here: their slots count until the
 * time-to-live.
 */
export function slotOwner(): string {
  own ??= `${thisHost()}#${process.pid}#${procStat(process.pid)?.started ?? ''}`;
  return own;
}

/** True only when the holder ran on this host and its process is gone (or is another process by now). */
export function slotOwnerIsDead(owner: string): boolean {
  const [host, pidText, started] = owner.split('#');
  if (host !== thisHost() || pidText === undefined) return false;
  const pid = Number(pidText);
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  // /proc: a zombie (killed, not yet reaped) answers signal 0 but is dead; a reused id has another start time.
  const now = procStat(pid);
  if (now !== null && started !== undefined && started !== '') return now.state === 'Z' || now.started !== started;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: alive, owned by another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

let own: string | undefined;
let host: string | undefined;

/** The host name plus the PID namespace: containers sharing a host name do not share process ids. */
function thisHost(): string {
  if (host !== undefined) return host;
  let namespace = '';
  try {
    namespace = readlinkSync('/proc/self/ns/pid');
  } catch {
    // Not Linux: the host name alone.
  }
  host = `${hostname().replaceAll('#', '_')}${namespace === '' ? '' : `/${namespace}`}`;
  return host;
}

/** State and start time (clock ticks since boot) from /proc/<pid>/stat; null when there is no such process or no /proc. */
function procStat(pid: number): { state: string; started: string } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its end.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', started: fields[19] ?? '' };
}
