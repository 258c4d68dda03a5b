import type { Selectable } from 'kysely';
import { bumpCredentialsVersion, readCredentialsVersion, type CredentialsBump } from './credentials-version.js';
import { toInt, toText } from './db-values.js';
import type { SessionsTable } from './schema.js';
import type { SessionRecord, SessionsRepo } from './types.js';
import type { DbRun } from './users-repo.js';

function toSession(row: Selectable<SessionsTable>): SessionRecord {
  return {
    tokenHash: toText(row.token_hash, 'sessions.token_hash'),
    userId: toInt(row.user_id, 'sessions.user_id'),
    expiresAt: toInt(row.expires_at, 'sessions.expires_at'),
    userAgent: toText(row.user_agent, 'sessions.user_agent'),
    ip: toText(row.ip, 'sessions.ip'),
    created: toInt(row.created, 'sessions.created'),
  };
}

/** Login sessions, looked up by the primary key (the token hash): one index probe per request. */
export class KyselySessions implements SessionsRepo {
  constructor(
    private readonly run: DbRun,
    private readonly bump: CredentialsBump = bumpCredentialsVersion,
  ) {}

  async create(session: SessionRecord): Promise<void> {
    const values = {
      token_hash: session.tokenHash,
      user_id: session.userId,
      expires_at: session.expiresAt,
      user_agent: session.userAgent,
      ip: session.ip,
      created: session.created,
    };
    await this.run((db) => db.insertInto('sessions').values(values).execute());
  }

  async find(tokenHash: string): Promise<SessionRecord | undefined> {
    const row = await this.run((db) => db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst());
    return row && toSession(row);
  }

  async destroy(tokenHash: string): Promise<boolean> {
    return this.run(async (db) => {
      const result = await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).executeTakeFirst();
      if (result.numDeletedRows > 0n) await this.bump(db);
      return result.numDeletedRows > 0n;
    });
  }

  async destroyForUser(userId: number): Promise<number> {
    return this.run(async (db) => {
      const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
      if (result.numDeletedRows > 0n) await this.bump(db);
      return Number(result.numDeletedRows);
    });
  }

  async destroyOthersForUser(userId: number, keepTokenHash: string): Promise<number> {
    return this.run(async (db) => {
      const result = await db
        .deleteFrom('sessions')
        .where('user_id', '=', userId)
        .where('token_hash', '<>', keepTokenHash)
        .executeTakeFirst();
      if (result.numDeletedRows > 0n) await this.bump(db);
      return Number(result.numDeletedRows);
    });
  }

  credentialsVersion(): Promise<number> {
    return this.run(readCredentialsVersion);
  }

  /** Unknown without a query here; the stores put their cached or pushed version in its place. */
  knownCredentialsVersion(): number | undefined {
    return undefined;
  }

  async listForUser(userId: number): Promise<SessionRecord[]> {
    const rows = await this.run((db) => db.selectFrom('sessions').selectAll().where('user_id', '=', userId).orderBy('created').execute());
    return rows.map(toSession);
  }

  async purgeExpired(now: number): Promise<number> {
    const result = await this.run((db) => db.deleteFrom('sessions').where('expires_at', '<', now).executeTakeFirst());
    return Number(result.numDeletedRows);
  }
}
