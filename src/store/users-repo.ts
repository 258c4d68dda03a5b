import { sql, type Kysely } from 'kysely';
import type { JsonValue } from '../core/json.js';
import { bumpCredentialsVersion, type CredentialsBump } from './credentials-version.js';
import { parseJson, toInt, toJsonText, toText, uniqueViolationTarget } from './db-values.js';
import { UniqueViolationError } from './errors.js';
import type { Database } from './schema.js';
import { ROLES_META_KEY, rolesOf, type NewUser, type UserMetaRepo, type UserRecord, type UsersRepo } from './types.js';

/**
 * Runs queries with the Kysely handle to use: the store's own (on SQLite behind its gate, so
 * the query never overlaps a transaction of this process) or a transaction's.
 */
export type DbRun = <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>;

const userColumns = ['id', 'login', 'email', 'display_name', 'pass_hash', 'registered'] as const;

function toUser(row: Record<(typeof userColumns)[number], unknown>): UserRecord {
  return {
    id: toInt(row.id, 'users.id'),
    login: toText(row.login, 'users.login'),
    email: toText(row.email, 'users.email'),
    displayName: toText(row.display_name, 'users.display_name'),
    passHash: toText(row.pass_hash, 'users.pass_hash'),
    registered: toInt(row.registered, 'users.registered'),
  };
}

function uniqueField(target: string): 'login' | 'email' | 'other' {
  if (target.includes('login')) return 'login';
  if (target.includes('email')) return 'email';
  return 'other';
}

/** `%` `_` and the escape character itself are literal in the LIKE pattern. */
function likeLiteral(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`);
}

export class KyselyUsers implements UsersRepo {
  constructor(
    private readonly run: DbRun,
    private readonly meta: UserMetaRepo,
    private readonly bump: CredentialsBump = bumpCredentialsVersion,
  ) {}

  async create(user: NewUser): Promise<UserRecord> {
    const values = {
      login: user.login,
      email: user.email,
      display_name: user.displayName,
      pass_hash: user.passHash,
      registered: user.registered ?? Date.now(),
    };
    try {
      const row = await this.run((db) => db.insertInto('users').values(values).returning(userColumns).executeTakeFirstOrThrow());
      return toUser(row);
    } catch (error) {
      const target = uniqueViolationTarget(error);
      if (target !== null) throw new UniqueViolationError(uniqueField(target));
      throw error;
    }
  }

  async byId(id: number): Promise<UserRecord | undefined> {
    const row = await this.run((db) => db.selectFrom('users').select(userColumns).where('id', '=', id).executeTakeFirst());
    return row && toUser(row);
  }

  async byLogin(login: string): Promise<UserRecord | undefined> {
    // Same expression as the unique index users_login_key, so the index serves the lookup.
    const row = await this.run((db) =>
      db
        .selectFrom('users')
        .select(userColumns)
        .where(sql<string>`lower(login)`, '=', sql<string>`lower(${login})`)
        .executeTakeFirst(),
    );
    return row && toUser(row);
  }

  async byEmail(email: string): Promise<UserRecord | undefined> {
    const row = await this.run((db) =>
      db
        .selectFrom('users')
        .select(userColumns)
        .where(sql<string>`lower(email)`, '=', sql<string>`lower(${email})`)
        .executeTakeFirst(),
    );
    return row && toUser(row);
  }

  async list(): Promise<UserRecord[]> {
    const rows = await this.run((db) => db.selectFrom('users').select(userColumns).orderBy('id').execute());
    return rows.map(toUser);
  }

  async setPassword(id: number, passHash: string): Promise<boolean> {
    return this.run(async (db) => {
      const result = await db.updateTable('users').set({ pass_hash: passHash }).where('id', '=', id).executeTakeFirst();
      if (result.numUpdatedRows > 0n) await this.bump(db);
      return result.numUpdatedRows > 0n;
    });
  }

  async updateProfile(id: number, changes: { readonly email?: string; readonly displayName?: string }): Promise<boolean> {
    const set: { email?: string; display_name?: string } = {};
    if (changes.email !== undefined) set.email = changes.email;
    if (changes.displayName !== undefined) set.display_name = changes.displayName;
    if (Object.keys(set).length === 0) return (await this.byId(id)) !== undefined;
    try {
      // Bumps the credentials version: cached principals and profiles hold the email and name.
      // Only a real change does (as for user meta): the same values again write nothing.
      return await this.run(async (db) => {
        const result = await db
          .updateTable('users')
          .set(set)
          .where('id', '=', id)
          .where((eb) => eb.or(Object.entries(set).map(([column, value]) => eb(column as keyof typeof set, '<>', value))))
          .executeTakeFirst();
        if (result.numUpdatedRows > 0n) {
          await this.bump(db);
          return true;
        }
        return (await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
      });
    } catch (error) {
      const target = uniqueViolationTarget(error);
      if (target !== null) throw new UniqueViolationError(uniqueField(target));
      throw error;
    }
  }

  async delete(id: number): Promise<boolean> {
    // Meta, sessions and application passwords go with it (ON DELETE CASCADE).
    return this.run(async (db) => {
      const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      if (result.numDeletedRows > 0n) await this.bump(db);
      return result.numDeletedRows > 0n;
    });
  }

  async roles(id: number): Promise<string[]> {
    return rolesOf(await this.meta.get(id, ROLES_META_KEY));
  }

  async setRoles(id: number, roles: readonly string[]): Promise<void> {
    // The meta write bumps the credentials version.
    await this.meta.set(id, ROLES_META_KEY, [...new Set(roles)]);
  }

  async lockCredentials(): Promise<void> {
    // The bump is an UPDATE of one row: PostgreSQL holds its lock until the transaction ends.
    await this.run(this.bump);
  }

  async countByRole(role: string): Promise<number> {
    // Role lists are JSON arrays of strings, so the JSON-encoded name (quotes included) only
    // matches a whole element.
    const pattern = `%${likeLiteral(JSON.stringify(role))}%`;
    const row = await this.run((db) =>
      db
        .selectFrom('user_meta')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('key', '=', ROLES_META_KEY)
        .where(sql<boolean>`value LIKE ${pattern} ESCAPE '!'`)
        .executeTakeFirstOrThrow(),
    );
    return toInt(row.n, 'count');
  }
}

/**
 * Every write bumps the credentials version: roles live here, and the users routes keep
 * profiles (meta included) cached against that version (`src/features/wp-platform/user-records.ts`).
 * User meta is written rarely (profile saves, preferences, connection, password reset links).
 */
export class KyselyUserMeta implements UserMetaRepo {
  constructor(
    private readonly run: DbRun,
    private readonly bump: CredentialsBump = bumpCredentialsVersion,
  ) {}

  async get(userId: number, key: string): Promise<JsonValue | undefined> {
    const row = await this.run((db) =>
      db.selectFrom('user_meta').select('value').where('user_id', '=', userId).where('key', '=', key).executeTakeFirst(),
    );
    return row ? parseJson(row.value, 'user_meta.value') : undefined;
  }

  async set(userId: number, key: string, value: JsonValue): Promise<void> {
    const text = toJsonText(value);
    await this.run(async (db) => {
      // Writing back the value a key holds (a profile saved with its fields unchanged) changes
      // nothing: no row is written and the version stays, so every session's cached principal
      // and profile stay valid instead of being checked again on their next request.
      const result = await db
        .insertInto('user_meta')
        .values({ user_id: userId, key, value: text })
        .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({ value: text }).where('user_meta.value', '<>', text))
        .executeTakeFirst();
      if (result.numInsertedOrUpdatedRows !== 0n) await this.bump(db);
    });
  }

  async delete(userId: number, key: string): Promise<void> {
    await this.run(async (db) => {
      const result = await db.deleteFrom('user_meta').where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
      if (result.numDeletedRows > 0n) await this.bump(db);
    });
  }

  async deleteIf(userId: number, key: string, expected: JsonValue): Promise<boolean> {
    const text = toJsonText(expected);
    const result = await this.run((db) =>
      db.deleteFrom('user_meta').where('user_id', '=', userId).where('key', '=', key).where('value', '=', text).executeTakeFirst(),
    );
    if (Number(result.numDeletedRows) !== 1) return false;
    await this.run(this.bump);
    return true;
  }

  async all(userId: number): Promise<Map<string, JsonValue>> {
    const rows = await this.run((db) => db.selectFrom('user_meta').select(['key', 'value']).where('user_id', '=', userId).execute());
    return new Map(rows.map((r) => [toText(r.key, 'user_meta.key'), parseJson(r.value, 'user_meta.value')]));
  }

  async ofEveryUser(keys: readonly string[]): Promise<Map<number, Map<string, JsonValue>>> {
    const out = new Map<number, Map<string, JsonValue>>();
    if (keys.length === 0) return out;
    const rows = await this.run((db) =>
      db
        .selectFrom('user_meta')
        .select(['user_id', 'key', 'value'])
        .where('key', 'in', [...keys])
        .execute(),
    );
    for (const r of rows) {
      const id = toInt(r.user_id, 'user_meta.user_id');
      let entries = out.get(id);
      if (!entries) out.set(id, (entries = new Map()));
      entries.set(toText(r.key, 'user_meta.key'), parseJson(r.value, 'user_meta.value'));
    }
    return out;
  }
}
