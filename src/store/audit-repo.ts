/**
 * The audit log's table: appends with their hash chain (audit-chain.ts), reads, checkpoints and
 * purges. On SQLite an append reads the head, hashes in JS and writes, inside the transaction's
 * BEGIN IMMEDIATE (which already serializes every writer). On PostgreSQL an append is one
 * statement (`auditCtes`) that locks the head row, hashes in SQL, inserts and moves the head, so
 * it can ride in the options batches' single statement; the head row's lock, held to COMMIT,
 * serializes appends of every host into one chain.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { AuditCheckpoint, AuditEvent, AuditEventInput } from '../wire/audit.js';
import { chainHash, draftOf, eventData, type AuditDraft } from './audit-chain.js';
import { toInt, toText } from './db-values.js';
import type { Dialect } from './migrations.js';
import type { Database } from './schema.js';
import type { AuditFilter, AuditHead, AuditLogRepo, StoredAuditRow } from './types.js';
import type { DbRun } from './users-repo.js';

/** Collects a transaction's events; the store writes them just before its COMMIT. */
export class AuditCollector {
  readonly drafts: AuditDraft[] = [];

  constructor(
    private readonly clock: () => number,
    private readonly hostId: string,
  ) {}

  readonly add = (event: AuditEventInput): void => {
    this.drafts.push(draftOf(event, this.clock(), this.hostId));
  };
}

/** The columns an event is kept in besides its data (for filters). */
function columnsOf(draft: AuditDraft) {
  return {
    time: draft.time,
    action: draft.action,
    result: draft.result,
    actor_user_id: draft.actor.user_id,
    object_type: draft.object?.type ?? '',
    object_id: draft.object?.id ?? '',
  };
}

/**
 * PostgreSQL: the CTEs (without `WITH RECURSIVE`) that append `drafts` to the chain; with
 * `gate`, only when that CTE (the options batch's version bump) yielded a row.
 */
export function auditCtes(drafts: readonly AuditDraft[], gate?: 'bump'): RawBuilder<unknown> {
  const data: string[] = [];
  const times: number[] = [];
  const actions: string[] = [];
  const results: string[] = [];
  const users: number[] = [];
  const types: string[] = [];
  const ids: string[] = [];
  for (const draft of drafts) {
    const columns = columnsOf(draft);
    data.push(eventData(draft));
    times.push(columns.time);
    actions.push(columns.action);
    results.push(columns.result);
    users.push(columns.actor_user_id);
    types.push(columns.object_type);
    ids.push(columns.object_id);
  }
  const gated = gate === 'bump' ? sql`, bump` : sql``;
  // FOR UPDATE returns the newest committed head even when another host moved it after this
  // statement's snapshot (READ COMMITTED re-reads a locked row), so the chain never forks.
  return sql`audit_head_row AS (
      SELECT h.last_id, h.hash FROM audit_head h${gated} WHERE h.id = 1 FOR UPDATE OF h
    ), audit_new AS (
      SELECT * FROM unnest(${data}::text[], ${times}::bigint[], ${actions}::text[], ${results}::text[], ${users}::int[], ${types}::text[], ${ids}::text[])
        WITH ORDINALITY AS e (data, time, action, result, actor_user_id, object_type, object_id, k)
    ), audit_chain AS (
      SELECT 0::bigint AS k, h.last_id::bigint AS id, h.hash::text AS hash FROM audit_head_row h
      UNION ALL
      SELECT c.k + 1, c.id + 1, encode(sha256(decode(c.hash, 'hex') || int8send(c.id + 1) || convert_to(e.data, 'UTF8')), 'hex')
        FROM audit_chain c JOIN audit_new e ON e.k = c.k + 1
    ), audit_inserted AS (
      INSERT INTO audit_log (id, time, action, result, actor_user_id, object_type, object_id, data, hash)
      SELECT c.id, e.time, e.action, e.result, e.actor_user_id, e.object_type, e.object_id, e.data, c.hash
        FROM audit_chain c JOIN audit_new e ON e.k = c.k
      RETURNING 1
    ), audit_moved AS (
      UPDATE audit_head SET last_id = c.id, hash = c.hash, count = audit_head.count + c.k
        FROM audit_chain c WHERE audit_head.id = 1 AND c.k = ${drafts.length}::bigint
      RETURNING 1
    )`;
}

/** Writes `drafts` in the transaction `db` belongs to (SQLite: hashed here; PostgreSQL: one statement). */
export async function appendDrafts(db: Kysely<Database>, dialect: Dialect, drafts: readonly AuditDraft[]): Promise<void> {
  if (drafts.length === 0) return;
  if (dialect === 'postgres') {
    await sql`WITH RECURSIVE ${auditCtes(drafts)} SELECT count(*) AS n FROM audit_moved`.execute(db);
    return;
  }
  const head = await db.selectFrom('audit_head').select(['last_id', 'hash', 'count']).where('id', '=', 1).executeTakeFirstOrThrow();
  let id = toInt(head.last_id, 'audit_head.last_id');
  let hash = toText(head.hash, 'audit_head.hash');
  const rows = drafts.map((draft) => {
    const data = eventData(draft);
    id += 1;
    hash = chainHash(hash, id, data);
    return { id, ...columnsOf(draft), data, hash };
  });
  // SQLite allows 32766 parameters per statement: 9 columns a row, chunks of 1000 rows.
  for (let i = 0; i < rows.length; i += 1000)
    await db
      .insertInto('audit_log')
      .values(rows.slice(i, i + 1000))
      .execute();
  await db
    .updateTable('audit_head')
    .set({ last_id: id, hash, count: toInt(head.count, 'audit_head.count') + drafts.length })
    .where('id', '=', 1)
    .execute();
}

const rowColumns = ['id', 'time', 'action', 'result', 'actor_user_id', 'object_type', 'object_id', 'data', 'hash'] as const;

interface SqliteAppend {
  readonly head: BetterSqlite3.Statement;
  readonly insert: BetterSqlite3.Statement;
  readonly move: BetterSqlite3.Statement;
}

const sqliteStatements = new WeakMap<BetterSqlite3.Database, SqliteAppend>();

/**
 * SQLite, inside the caller's open transaction: the same append as `appendDrafts` on prepared
 * statements kept per connection (speed: through Kysely, compiling three queries cost a toggle
 * about five times its CPU).
 */
export function appendSqlite(sqlite: BetterSqlite3.Database, drafts: readonly AuditDraft[]): void {
  if (drafts.length === 0) return;
  let statements = sqliteStatements.get(sqlite);
  if (!statements) {
    statements = {
      head: sqlite.prepare('SELECT last_id, hash, count FROM audit_head WHERE id = 1'),
      insert: sqlite.prepare(
        'INSERT INTO audit_log (id, time, action, result, actor_user_id, object_type, object_id, data, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      move: sqlite.prepare('UPDATE audit_head SET last_id = ?, hash = ?, count = ? WHERE id = 1'),
    };
    sqliteStatements.set(sqlite, statements);
  }
  const head = statements.head.get() as { last_id: unknown; hash: unknown; count: unknown } | undefined;
  if (!head) throw new Error('the audit head row is missing');
  let id = toInt(head.last_id, 'audit_head.last_id');
  let hash = toText(head.hash, 'audit_head.hash');
  for (const draft of drafts) {
    const data = eventData(draft);
    id += 1;
    hash = chainHash(hash, id, data);
    const c = columnsOf(draft);
    statements.insert.run(id, c.time, c.action, c.result, c.actor_user_id, c.object_type, c.object_id, data, hash);
  }
  statements.move.run(id, hash, toInt(head.count, 'audit_head.count') + drafts.length);
}

function toRow(row: Record<(typeof rowColumns)[number], unknown>): StoredAuditRow {
  return {
    id: toInt(row.id, 'audit_log.id'),
    time: toInt(row.time, 'audit_log.time'),
    action: toText(row.action, 'audit_log.action'),
    result: toText(row.result, 'audit_log.result'),
    actorUserId: toInt(row.actor_user_id, 'audit_log.actor_user_id'),
    objectType: toText(row.object_type, 'audit_log.object_type'),
    objectId: toText(row.object_id, 'audit_log.object_id'),
    data: toText(row.data, 'audit_log.data'),
    hash: toText(row.hash, 'audit_log.hash'),
  };
}

/** The event a row holds: its data with its id. */
export function eventOf(row: { readonly id: number; readonly data: string }): AuditEvent {
  return { id: row.id, ...(JSON.parse(row.data) as Omit<AuditEvent, 'id'>) };
}

/** `%`, `_` and `\` match themselves in a LIKE pattern with ESCAPE '\'. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** How many leading characters' cases `prefixPieces` spells out (2^3 + 1 pieces at most). */
const CASED_LEADING = 3;

/** A key range of the `action` index; `like`: the LIKE must still decide within it. */
export interface ActionPiece {
  readonly from: string;
  readonly to: string;
  readonly like: boolean;
}

/** `text` with its last character one higher: every text starting with `text` sorts below it. */
function above(text: string): string {
  return text.slice(0, -1) + String.fromCharCode(text.charCodeAt(text.length - 1) + 1);
}

/**
 * SQLite: disjoint key ranges of the `action` index that together hold exactly the actions its
 * LIKE `prefix%` matches (ASCII letters in either case, as LIKE does; `%` and `_` are plain
 * characters here). Each case spelling `lead` of the first characters gets the range from
 * lead + rest in upper case to above lead + rest in lower case, where the LIKE decides; the
 * all-lower-case lead's range is cut at lead + rest in lower case: above that cut it holds only
 * actions starting with the lower-case prefix, which all match (LIKE ignoring ASCII case is
 * SQLite's default, and nothing sets case_sensitive_like), without a LIKE (the actions
 * written are lower case, so nearly every match is counted there from the index alone). Null for
 * an empty or non-ASCII prefix (JS compares UTF-16 units, SQLite UTF-8 bytes).
 */
export function prefixPieces(prefix: string): ActionPiece[] | null {
  if (prefix === '' || /[^\0-\x7f]/.test(prefix)) return null;
  let leads = [''];
  for (const c of prefix.slice(0, CASED_LEADING)) {
    const cases = [...new Set([c.toUpperCase(), c.toLowerCase()])];
    leads = leads.flatMap((lead) => cases.map((k) => lead + k));
  }
  const rest = prefix.slice(CASED_LEADING);
  const lower = prefix.toLowerCase();
  const pieces: ActionPiece[] = [];
  for (const lead of leads) {
    const from = lead + rest.toUpperCase();
    const high = lead + rest.toLowerCase();
    if (high !== lower) pieces.push({ from, to: above(high), like: true });
    else {
      if (from !== lower) pieces.push({ from, to: lower, like: true });
      pieces.push({ from: lower, to: above(lower), like: false });
    }
  }
  return pieces;
}

/** The prefix an `action` filter names (`module.` or `module.*`), or null for one exact action. */
function actionPrefix(action: string): string | null {
  return action.endsWith('*') ? action.slice(0, -1) : action.endsWith('.') ? action : null;
}

export class KyselyAuditLog implements AuditLogRepo {
  constructor(
    private readonly run: DbRun,
    private readonly transaction: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>,
    /** Writes drafts inside a transaction of `transaction` (SQLite: on the connection's prepared statements). */
    private readonly appendIn: (db: Kysely<Database>, drafts: readonly AuditDraft[]) => Promise<void>,
    private readonly clock: () => number,
    private readonly hostId: string,
    /** SQLite counts a prefix of actions by ranges of its index (`prefixPieces`). */
    private readonly dialect?: Dialect,
  ) {}

  async append(events: readonly AuditEventInput[]): Promise<void> {
    if (events.length === 0) return;
    const collector = new AuditCollector(this.clock, this.hostId);
    for (const event of events) collector.add(event);
    await this.transaction((db) => this.appendIn(db, collector.drafts));
  }

  async appendBeyond(events: readonly AuditEventInput[], afterId: number): Promise<void> {
    if (events.length === 0) return;
    const collector = new AuditCollector(this.clock, this.hostId);
    for (const event of events) collector.add(event);
    await this.transaction(async (db) => {
      // count = last_id: a checkpoint signs both and verification expects them equal.
      await db
        .updateTable('audit_head')
        .set({ last_id: afterId, count: afterId })
        .where('id', '=', 1)
        .where('last_id', '<', afterId)
        .execute();
      await this.appendIn(db, collector.drafts);
    });
  }

  /** `piece`: only the actions of that range of a prefix's (`prefixPieces`, SQLite counts). */
  private filtered(db: Kysely<Database>, filter: AuditFilter, piece?: ActionPiece) {
    let query = db.selectFrom('audit_log');
    const action = filter.action;
    if (piece) query = query.where('action', '>=', piece.from).where('action', '<', piece.to);
    if (action !== undefined && action !== '' && piece?.like !== false) {
      const prefix = actionPrefix(action);
      query =
        prefix === null
          ? query.where('action', '=', action)
          : query.where(sql<boolean>`action LIKE ${`${likeLiteral(prefix)}%`} ESCAPE '\\'`);
    }
    if (filter.actorUserId !== undefined) query = query.where('actor_user_id', '=', filter.actorUserId);
    if (filter.objectType !== undefined) query = query.where('object_type', '=', filter.objectType);
    if (filter.objectId !== undefined) query = query.where('object_id', '=', filter.objectId);
    if (filter.result !== undefined) query = query.where('result', '=', filter.result);
    if (filter.after !== undefined) query = query.where('time', '>=', filter.after);
    if (filter.before !== undefined) query = query.where('time', '<', filter.before);
    if (filter.idAfter !== undefined) query = query.where('id', '>', filter.idAfter);
    if (filter.idAtMost !== undefined) query = query.where('id', '<=', filter.idAtMost);
    if (filter.search !== undefined && filter.search !== '')
      query = query.where(sql<boolean>`lower(data) LIKE ${`%${likeLiteral(filter.search.toLowerCase())}%`} ESCAPE '\\'`);
    return query;
  }

  async list(
    filter: AuditFilter,
    page: { readonly limit: number; readonly offset: number; readonly order?: 'asc' | 'desc' },
  ): Promise<AuditEvent[]> {
    return (await this.listStored(filter, page)).map(eventOf);
  }

  async listStored(
    filter: AuditFilter,
    page: { readonly limit: number; readonly offset: number; readonly order?: 'asc' | 'desc' },
  ): Promise<{ readonly id: number; readonly data: string }[]> {
    const rows = await this.run((db) =>
      this.filtered(db, filter)
        .select(['id', 'data'])
        .orderBy('id', page.order ?? 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
    );
    return rows.map((row) => ({ id: toInt(row.id, 'audit_log.id'), data: toText(row.data, 'audit_log.data') }));
  }

  async page(filter: AuditFilter, limit: number): Promise<{ readonly id: number; readonly data: string }[]> {
    const rows = await this.run((db) => this.filtered(db, filter).select(['id', 'data']).orderBy('id', 'asc').limit(limit).execute());
    return rows.map((row) => ({ id: toInt(row.id, 'audit_log.id'), data: toText(row.data, 'audit_log.data') }));
  }

  async count(filter: AuditFilter): Promise<number> {
    // Speed (issue 44): SQLite's LIKE cannot seek the `action` index (its LIKE ignores case, the
    // index does not), so a prefix's count read every entry of it and ran the LIKE on each; summed
    // over the prefix's pieces it reads only entries that may match, and runs no LIKE on the
    // lower-case prefix's own range. Lists keep the LIKE alone: with ranges SQLite would sort every
    // match by id instead of walking ids newest first and stopping at the page. PostgreSQL keeps
    // the LIKE alone too: its ranges follow the column's collation, which need not be byte order.
    const prefix = this.dialect === 'sqlite' && filter.action !== undefined ? actionPrefix(filter.action) : null;
    const pieces = prefix === null ? null : prefixPieces(prefix);
    const row = await this.run((db) => {
      if (!pieces)
        return this.filtered(db, filter)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
      const counts = pieces.map((piece) => sql`(${this.filtered(db, filter, piece).select((eb) => eb.fn.countAll().as('n'))})`);
      return db.selectNoFrom(sql<number>`${sql.join(counts, sql` + `)}`.as('n')).executeTakeFirstOrThrow();
    });
    return toInt(row.n, 'count');
  }

  async get(id: number): Promise<AuditEvent | undefined> {
    const row = await this.run((db) => db.selectFrom('audit_log').select(['id', 'data']).where('id', '=', id).executeTakeFirst());
    return row ? eventOf({ id: toInt(row.id, 'audit_log.id'), data: toText(row.data, 'audit_log.data') }) : undefined;
  }

  async rows(afterId: number, limit: number): Promise<StoredAuditRow[]> {
    const rows = await this.run((db) =>
      db.selectFrom('audit_log').select(rowColumns).where('id', '>', afterId).orderBy('id', 'asc').limit(limit).execute(),
    );
    return rows.map(toRow);
  }

  async head(): Promise<AuditHead> {
    const row = await this.run((db) =>
      db.selectFrom('audit_head').select(['last_id', 'hash', 'count']).where('id', '=', 1).executeTakeFirstOrThrow(),
    );
    return {
      lastId: toInt(row.last_id, 'audit_head.last_id'),
      hash: toText(row.hash, 'audit_head.hash'),
      count: toInt(row.count, 'audit_head.count'),
    };
  }

  async addCheckpoint(checkpoint: AuditCheckpoint): Promise<void> {
    await this.run((db) =>
      db
        .insertInto('audit_checkpoints')
        .values({
          last_id: checkpoint.last_id,
          head_hash: checkpoint.head_hash,
          count: checkpoint.count,
          time: checkpoint.time,
          signature: checkpoint.signature,
        })
        // A checkpoint of the same head again (nothing happened since): the newer signature replaces it.
        .onConflict((oc) => oc.column('last_id').doUpdateSet({ time: checkpoint.time, signature: checkpoint.signature }))
        .execute(),
    );
  }

  async checkpoints(): Promise<AuditCheckpoint[]> {
    const rows = await this.run((db) =>
      db.selectFrom('audit_checkpoints').select(['last_id', 'head_hash', 'count', 'time', 'signature']).orderBy('last_id', 'asc').execute(),
    );
    return rows.map((row) => ({
      last_id: toInt(row.last_id, 'audit_checkpoints.last_id'),
      head_hash: toText(row.head_hash, 'audit_checkpoints.head_hash'),
      count: toInt(row.count, 'audit_checkpoints.count'),
      time: toInt(row.time, 'audit_checkpoints.time'),
      signature: toText(row.signature, 'audit_checkpoints.signature'),
    }));
  }

  async lastIdBefore(time: number): Promise<number | null> {
    const row = await this.run((db) =>
      db
        .selectFrom('audit_log')
        .select('id')
        .where('time', '<', time)
        .orderBy('time', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),
    );
    return row ? toInt(row.id, 'audit_log.id') : null;
  }

  async purgeThrough(lastId: number, batch: number): Promise<number> {
    // A bounded delete by the primary key: each batch holds its locks for a moment only.
    const result = await this.run((db) =>
      db
        .deleteFrom('audit_log')
        .where('id', 'in', db.selectFrom('audit_log').select('id').where('id', '<=', lastId).orderBy('id', 'asc').limit(batch))
        .executeTakeFirst(),
    );
    return Number(result.numDeletedRows);
  }

  async dropCheckpointsBefore(lastId: number): Promise<void> {
    await this.run((db) => db.deleteFrom('audit_checkpoints').where('last_id', '<', lastId).execute());
  }

  async countFailedLogin(address: string, login: string, now: number, windowMs: number): Promise<void> {
    const windowStart = now - (now % windowMs);
    // Bounded keys: an attacker sending megabyte logins gets them cut, not stored.
    const key = { address: address.slice(0, 64), login: login.slice(0, 200).toLowerCase(), window_start: windowStart };
    await this.run((db) =>
      db
        .insertInto('audit_failed_logins')
        .values({ ...key, count: 1, first_time: now, last_time: now })
        .onConflict((oc) =>
          oc.columns(['address', 'login', 'window_start']).doUpdateSet({
            count: sql`audit_failed_logins.count + 1`,
            last_time: sql`CASE WHEN audit_failed_logins.last_time > ${now} THEN audit_failed_logins.last_time ELSE ${now} END`,
          }),
        )
        .execute(),
    );
  }

  async flushFailedLogins(now: number, windowMs: number): Promise<number> {
    return this.transaction(async (db) => {
      const rows = await db
        .selectFrom('audit_failed_logins')
        .select(['address', 'login', 'window_start', 'count', 'first_time', 'last_time'])
        .where('window_start', '<=', now - windowMs)
        .orderBy('first_time')
        .limit(1000)
        .execute();
      if (rows.length === 0) return 0;
      const drafts = rows.map((row) =>
        draftOf(
          {
            action: 'login.failed',
            result: 'failed',
            actor: { kind: 'anonymous', user_id: 0, login: '', credential: { type: 'none' } },
            client_ip: toText(row.address, 'audit_failed_logins.address'),
            user_agent: '',
            request_id: '',
            object: {
              type: 'login',
              id: toText(row.login, 'audit_failed_logins.login'),
              name: toText(row.login, 'audit_failed_logins.login'),
            },
            changes: {},
            count: toInt(row.count, 'audit_failed_logins.count'),
            first_time: toInt(row.first_time, 'audit_failed_logins.first_time'),
            last_time: toInt(row.last_time, 'audit_failed_logins.last_time'),
          },
          this.clock(),
          this.hostId,
        ),
      );
      await this.appendIn(db, drafts);
      for (const row of rows)
        await db
          .deleteFrom('audit_failed_logins')
          .where('address', '=', row.address)
          .where('login', '=', row.login)
          .where('window_start', '=', row.window_start)
          .execute();
      return rows.length;
    });
  }

  async pendingFailedLogins(): Promise<number> {
    const row = await this.run((db) =>
      db
        .selectFrom('audit_failed_logins')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    );
    return toInt(row.n, 'count');
  }
}
