import { sql } from 'kysely';
import { parseJson, toInt, toJsonText } from './db-values.js';
import type { JsonValue } from '../core/json.js';
import type { LeasesRepo, StatusRepo } from './types.js';
import type { DbRun } from './users-repo.js';

/**
 * Named leases: one holder at a time, taken over once expired. One upsert statement, so two
 * processes racing for a free or expired lease cannot both win (RETURNING yields the row only
 * when this statement inserted or updated it).
 */
export class KyselyLeases implements LeasesRepo {
  constructor(private readonly run: DbRun) {}

  async acquire(name: string, holder: string, ttlMs: number, now: number): Promise<boolean> {
    const row = await this.run((db) =>
      db
        .insertInto('leases')
        .values({ name, holder, until: now + ttlMs })
        .onConflict((oc) =>
          oc
            .column('name')
            .doUpdateSet({ holder, until: now + ttlMs })
            .where((eb) => eb.or([eb('leases.holder', '=', holder), eb('leases.until', '<=', now)])),
        )
        .returning('holder')
        .executeTakeFirst(),
    );
    return row !== undefined;
  }

  async release(name: string, holder: string): Promise<void> {
    await this.run((db) => db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute());
  }

  async holder(name: string, now: number): Promise<string | null> {
    const row = await this.run((db) => db.selectFrom('leases').select(['holder', 'until']).where('name', '=', name).executeTakeFirst());
    return row && toInt(row.until, 'leases.until') > now ? row.holder : null;
  }
}

/** Status rows (key → JSON): read and written directly, never cached, never versioned. */
export class KyselyStatus implements StatusRepo {
  constructor(private readonly run: DbRun) {}

  async get(key: string): Promise<{ value: JsonValue; updated: number } | undefined> {
    const row = await this.run((db) =>
      db.selectFrom('status_values').select(['value', 'updated']).where('key', '=', key).executeTakeFirst(),
    );
    return row && { value: parseJson(row.value, 'status_values.value'), updated: toInt(row.updated, 'status_values.updated') };
  }

  async set(key: string, value: JsonValue, now: number): Promise<void> {
    const text = toJsonText(value);
    await this.run((db) =>
      db
        .insertInto('status_values')
        .values({ key, value: text, updated: now })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: text, updated: now }))
        .execute(),
    );
  }

  async delete(key: string): Promise<void> {
    await this.run((db) => db.deleteFrom('status_values').where('key', '=', key).execute());
  }

  async keys(prefix: string): Promise<string[]> {
    // substr instead of LIKE: no wildcard escaping, case-sensitive on both dialects.
    const rows = await this.run((db) =>
      db
        .selectFrom('status_values')
        .select('key')
        .where(sql<string>`substr(key, 1, ${prefix.length})`, '=', prefix)
        .orderBy('key')
        .execute(),
    );
    return rows.map((row) => row.key);
  }
}
