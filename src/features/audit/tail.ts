/**
 * `siteward audit tail [-f]`: the last matching events, then (with -f) each new one as it is
 * written, from any host. It polls the store by id (one indexed query per interval, also on
 * PostgreSQL, where every host's events land in the same table); ids are gapless and given in
 * commit order, so nothing is skipped. SIGINT or SIGTERM ends it with exit 0.
 */
import { setTimeout as wait } from 'node:timers/promises';
import type { AuditFilter, AuditLogRepo } from '../../store/types.js';
import type { AuditEvent } from '../../wire/audit.js';

export interface TailOptions {
  readonly filter: AuditFilter;
  /** How many of the newest matching events to print first. */
  readonly lines: number;
  readonly follow: boolean;
  readonly intervalMs: number;
  readonly print: (event: AuditEvent) => void | Promise<void>;
  /** Ends the follow (SIGINT); tail then returns. */
  readonly signal: AbortSignal;
}

/** Events read per poll at most; a burst larger than this is read over the next polls without a pause. */
const POLL_PAGE = 500;

export async function tailLog(log: AuditLogRepo, options: TailOptions): Promise<void> {
  const { filter, signal } = options;
  // The head first: what is written while the last lines are read is then followed, never lost.
  const head = await log.head();
  const last = options.lines === 0 ? [] : await log.list({ ...filter, idAtMost: head.lastId }, { limit: options.lines, offset: 0 });
  for (const event of last.reverse()) await options.print(event);
  let after = head.lastId;
  while (options.follow && !signal.aborted) {
    // Read before the page: every event up to it had committed, so the page saw those that match.
    const seen = (await log.head()).lastId;
    const rows = await log.page({ ...filter, idAfter: after }, POLL_PAGE);
    for (const row of rows) {
      await options.print({ id: row.id, ...(JSON.parse(row.data) as Omit<AuditEvent, 'id'>) });
      after = row.id;
    }
    if (rows.length === POLL_PAGE) continue;
    // A filter that matches nothing new still moves on: the next poll starts past what was seen.
    if (rows.length === 0) after = Math.max(after, seen);
    try {
      await wait(options.intervalMs, undefined, { signal });
    } catch {
      return; // aborted: a clean end
    }
  }
}
