import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Who holds a Protect check slot: host, PID namespace and process id, so that another process on
 * the same host can tell that the holder died (kill -9, OOM) and stop counting its slots at once
 * instead of after the reservation's time-to-live. Holders on other hosts cannot be checked from
 * here: their slots count until the time-to-live.
 */
export function slotOwner(pid: number = process.pid): string {
  return `${thisHost()}#${pid}`;
}

/** True only when the holder ran on this host and its process is gone. */
export function slotOwnerIsDead(owner: string): boolean {
  const at = owner.lastIndexOf('#');
  if (at < 0 || owner.slice(0, at) !== thisHost()) return false;
  const pid = Number(owner.slice(at + 1));
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: alive, owned by another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

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
  host = `${hostname()}${namespace === '' ? '' : `/${namespace}`}`;
  return host;
}
