/** The server's own events: a worker started serving, or stopped (docs/audit-log.md). */
import { hostname } from 'node:os';
import { SITEWARD_VERSION } from '../../core/version.js';
import type { Store } from '../../store/types.js';
import type { AuditChange } from '../../wire/audit.js';
import { auditEvent, jobSource } from './source.js';

/** `server.started` / `server.stopped` (with the signal) of this process. */
export async function recordServerEvent(
  store: Pick<Store, 'auditLog'>,
  action: 'server.started' | 'server.stopped',
  signal?: string,
): Promise<void> {
  const object = { type: 'server', id: `${hostname()}:${process.pid}`, name: `Siteward ${SITEWARD_VERSION}` };
  const changes: Record<string, AuditChange> = signal === undefined ? {} : { signal: { before: null, after: signal } };
  await store.auditLog.append([auditEvent(jobSource('server'), action, object, changes)]);
}
