/**
 * `denied` events: a REST request that would change something (any method but GET, HEAD and
 * OPTIONS) from an authenticated user, refused by its endpoint's permission check with a 401 or
 * 403, each `batch/v1` item too. The REST layer only tells (`onRequestRefused`); nothing changed,
 * so the event is written in a transaction of its own, after the answer is decided and without
 * delaying it. Anonymous refusals are not recorded: anyone could grow the log with them.
 *
 * Collapsed (docs/audit-log.md "Refused writes"): a client hammering a refused route would grow
 * the log like a password guesser, so refusals are counted per client address, route, user,
 * credential, code and window (`audit_denied_counts`). The first of a window is written at once,
 * in the transaction that creates its counter (alerts and forwarding see it without waiting);
 * when more followed, a job writes one more event at the window's end with their count.
 */
import type { ColumnType, Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { RefusalObserver, RestRequest } from '../../rest/types.js';
import type { RestError } from '../../rest/errors.js';
import type { Dialect } from '../../store/migrations.js';
import type { AuditActor, AuditEventInput } from '../../wire/audit.js';
import type { FeatureDb } from '../db/feature-db.js';
import { auditEvent, type RequestSources } from './source.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The window refusals of one client, route, credential and code collapse into (as failed logins). */
export const DENIED_WINDOW_MS = 10 * 60_000;

export const DENIED_MIGRATION_NAME = '0266_audit_denied_counts';

type Int = ColumnType<number | string | bigint, number, number>;

export interface DeniedTables {
  audit_denied_counts: {
    address: string;
    route: string;
    user_id: Int;
    credential: string;
    code: string;
    window_start: Int;
    count: Int;
    first_time: Int;
    last_time: Int;
    /** The window's first event (JSON): the collapsed event repeats its actor, object and changes. */
    event: string;
  };
}

/** Creates `audit_denied_counts`. Never edit once released. */
export function deniedMigration(dialect: Dialect): Migration {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('audit_denied_counts')
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('route', 'text', (c) => c.notNull())
        .addColumn('user_id', big, (c) => c.notNull())
        .addColumn('credential', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('window_start', big, (c) => c.notNull())
        .addColumn('count', big, (c) => c.notNull())
        .addColumn('first_time', big, (c) => c.notNull())
        .addColumn('last_time', big, (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('audit_denied_counts_pk', ['address', 'route', 'user_id', 'credential', 'code', 'window_start'])
        .execute();
      await db.schema.createIndex('audit_denied_counts_window').on('audit_denied_counts').column('window_start').execute();
    },
  };
}

/** The observer that records a refused write of a known user: at once for the first of its window, counted after. */
export function deniedRequests(
  sources: RequestSources,
  db: FeatureDb<DeniedTables>,
  clock: () => number,
  failed: (error: unknown) => void,
  windowMs = DENIED_WINDOW_MS,
): RefusalObserver {
  return (request: RestRequest, error: RestError) => {
    if (READS.has(request.method) || request.user.id === 0) return;
    if (error.status !== 401 && error.status !== 403) return;
    void sources
      .of(request)
      .then((source) => countDenied(db, deniedEvent(source, request, error), clock(), windowMs))
      .catch(failed);
  };
}

function deniedEvent(source: Awaited<ReturnType<RequestSources['of']>>, request: RestRequest, error: RestError): AuditEventInput {
  return auditEvent(
    source,
    'rest.denied',
    { type: 'route', id: `${request.method} ${request.route}`, name: request.matchedRoute },
    { status: { before: null, after: error.status }, code: { before: null, after: error.code } },
    'denied',
  );
}

/** Which credential: its hash, uuid or client id, never a secret (the same the event shows). */
function credentialKey(credential: AuditActor['credential']): string {
  switch (credential.type) {
    case 'session':
      return `session:${credential.token_hash}`;
    case 'application_password':
      return `application_password:${credential.uuid}`;
    case 'oauth':
      return `oauth:${credential.client_id}`;
    case 'os_user':
      return `os_user:${credential.name}`;
    default:
      return credential.type;
  }
}

/**
 * Counts one refusal in its window, in one transaction: the counter row is created with the
 * window's first event (so there is an event exactly when there is a counter), or bumped.
 */
async function countDenied(db: FeatureDb<DeniedTables>, event: AuditEventInput, now: number, windowMs: number): Promise<void> {
  const object = event.object!;
  const code = event.changes.code;
  // Bounded keys: a client choosing a megabyte path gets it cut, not stored (and PostgreSQL's text holds no NUL).
  const text = (value: string, max: number) => value.replaceAll('\0', '\uFFFD').slice(0, max);
  const key = {
    address: text(event.client_ip, 64),
    route: text(object.id, 300),
    user_id: event.actor.user_id,
    credential: text(credentialKey(event.actor.credential), 200),
    code: text(String(code !== undefined && 'after' in code ? code.after : ''), 100),
    window_start: now - (now % windowMs),
  };
  await db.transaction(async (tx, audit) => {
    const row = await tx
      .insertInto('audit_denied_counts')
      .values({ ...key, count: 1, first_time: now, last_time: now, event: JSON.stringify(event) })
      .onConflict((oc) =>
        oc.columns(['address', 'route', 'user_id', 'credential', 'code', 'window_start']).doUpdateSet({
          count: sql`audit_denied_counts.count + 1`,
          last_time: sql`CASE WHEN audit_denied_counts.last_time > ${now} THEN audit_denied_counts.last_time ELSE ${now} END`,
        }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    if (Number(row.count) === 1) audit(event);
  });
}

/**
 * Turns the counters of windows that ended by `now` into events, deleting them in the same
 * transaction: one `rest.denied` with `count` (every refusal of the window, the first included),
 * `first_time` and `last_time` when more than the first came; nothing more when only the first
 * did (it is already recorded). Up to 1000 counters a run; returns how many were flushed.
 */
export async function flushDenied(db: FeatureDb<DeniedTables>, now: number, windowMs = DENIED_WINDOW_MS): Promise<number> {
  return db.transaction(async (tx, audit) => {
    const rows = await tx
      .selectFrom('audit_denied_counts')
      .selectAll()
      .where('window_start', '<=', now - windowMs)
      .orderBy('first_time')
      .limit(1000)
      .execute();
    for (const row of rows) {
      const count = Number(row.count);
      if (count > 1)
        audit({
          ...(JSON.parse(row.event) as AuditEventInput),
          // Many requests: the first one's id would name only it.
          request_id: '',
          count,
          first_time: Number(row.first_time),
          last_time: Number(row.last_time),
        });
      await tx
        .deleteFrom('audit_denied_counts')
        .where('address', '=', row.address)
        .where('route', '=', row.route)
        .where('user_id', '=', Number(row.user_id))
        .where('credential', '=', row.credential)
        .where('code', '=', row.code)
        .where('window_start', '=', Number(row.window_start))
        .execute();
    }
    return rows.length;
  });
}
