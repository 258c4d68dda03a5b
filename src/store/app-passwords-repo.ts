import { bumpCredentialsVersion, type CredentialsBump } from './credentials-version.js';
import type { Selectable } from 'kysely';
import { toInt, toIntOrNull, toText } from './db-values.js';
import type { AppPasswordsTable } from './schema.js';
import type { AppPasswordRecord, AppPasswordsRepo } from './types.js';
import type { DbRun } from './users-repo.js';

function toAppPassword(row: Selectable<AppPasswordsTable>): AppPasswordRecord {
  return {
    uuid: toText(row.uuid, 'app_passwords.uuid'),
    userId: toInt(row.user_id, 'app_passwords.user_id'),
    name: toText(row.name, 'app_passwords.name'),
    hash: toText(row.hash, 'app_passwords.hash'),
    created: toInt(row.created, 'app_passwords.created'),
    lastUsed: toIntOrNull(row.last_used, 'app_passwords.last_used'),
    appId: row.app_id === null || row.app_id === undefined ? '' : toText(row.app_id, 'app_passwords.app_id'),
    lastIp: row.last_ip === null || row.last_ip === undefined ? null : toText(row.last_ip, 'app_passwords.last_ip'),
  };
}

/** Application passwords, found by the hash of the presented password (unique index). */
export class KyselyAppPasswords implements AppPasswordsRepo {
  constructor(
    private readonly run: DbRun,
    private readonly bump: CredentialsBump = bumpCredentialsVersion,
  ) {}

  async create(record: Parameters<AppPasswordsRepo['create']>[0]): Promise<void> {
    const values = {
      uuid: record.uuid,
      user_id: record.userId,
      name: record.name,
      hash: record.hash,
      created: record.created,
      last_used: null,
      app_id: record.appId ?? '',
    };
    await this.run((db) => db.insertInto('app_passwords').values(values).execute());
  }

  async listForUser(userId: number): Promise<AppPasswordRecord[]> {
    const rows = await this.run((db) =>
      db.selectFrom('app_passwords').selectAll().where('user_id', '=', userId).orderBy('created').orderBy('uuid').execute(),
    );
    return rows.map(toAppPassword);
  }

  async byHash(hash: string): Promise<AppPasswordRecord | undefined> {
    const row = await this.run((db) => db.selectFrom('app_passwords').selectAll().where('hash', '=', hash).executeTakeFirst());
    return row && toAppPassword(row);
  }

  async delete(userId: number, uuid: string): Promise<boolean> {
    return this.run(async (db) => {
      const result = await db.deleteFrom('app_passwords').where('user_id', '=', userId).where('uuid', '=', uuid).executeTakeFirst();
      if (result.numDeletedRows > 0n) await this.bump(db);
      return result.numDeletedRows > 0n;
    });
  }

  async deleteAllForUser(userId: number): Promise<number> {
    return this.run(async (db) => {
      const result = await db.deleteFrom('app_passwords').where('user_id', '=', userId).executeTakeFirst();
      if (result.numDeletedRows > 0n) await this.bump(db);
      return Number(result.numDeletedRows);
    });
  }

  async rename(userId: number, uuid: string, name: string): Promise<boolean> {
    const result = await this.run((db) =>
      db.updateTable('app_passwords').set({ name }).where('user_id', '=', userId).where('uuid', '=', uuid).executeTakeFirst(),
    );
    return result.numUpdatedRows > 0n;
  }

  async touch(uuid: string, when: number, ip?: string): Promise<void> {
    const changes = ip === undefined || ip === '' ? { last_used: when } : { last_used: when, last_ip: ip };
    await this.run((db) => db.updateTable('app_passwords').set(changes).where('uuid', '=', uuid).execute());
  }

  async touchFirst(uuid: string, when: number, ip?: string): Promise<boolean> {
    const changes = ip === undefined || ip === '' ? { last_used: when } : { last_used: when, last_ip: ip };
    const result = await this.run((db) =>
      db.updateTable('app_passwords').set(changes).where('uuid', '=', uuid).where('last_used', 'is', null).executeTakeFirst(),
    );
    return result.numUpdatedRows > 0n;
  }
}
