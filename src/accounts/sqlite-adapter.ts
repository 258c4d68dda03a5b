import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import type { Clock } from '../auth/clock.js';
import type { AccountsDb } from './accounts-db.js';

/** Models whose rows carry a grantId and die with their grant (oidc-provider's memory adapter list). */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

/** Expired rows are purged every this many writes, so the file does not grow forever. */
const PURGE_EVERY = 200;

/**
 * oidc-provider's storage in SQLite: one table, one row per (model, id), the payload as JSON.
 * Expiry is checked on read (an expired row reads as absent) and purged in batches on write.
 * `clock` only decides expiry here; oidc-provider itself keeps using the system time.
 */
export function sqliteAdapterFactory(db: AccountsDb, clock: Clock): AdapterFactory {
  let writes = 0;
  const statements = {
    upsert: db.prepare(
      `INSERT INTO oidc_models (model, id, payload, grant_id, user_code, uid, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
         user_code = excluded.user_code, uid = excluded.uid, expires_at = excluded.expires_at`,
    ),
    find: db.prepare('SELECT payload, expires_at FROM oidc_models WHERE model = ? AND id = ?'),
    findByUid: db.prepare('SELECT payload, expires_at FROM oidc_models WHERE model = ? AND uid = ?'),
    findByUserCode: db.prepare('SELECT payload, expires_at FROM oidc_models WHERE model = ? AND user_code = ?'),
    consume: db.prepare(`UPDATE oidc_models SET payload = json_set(payload, '$.consumed', ?) WHERE model = ? AND id = ?`),
    destroy: db.prepare('DELETE FROM oidc_models WHERE model = ? AND id = ?'),
    revokeByGrantId: db.prepare('DELETE FROM oidc_models WHERE grant_id = ?'),
    purge: db.prepare('DELETE FROM oidc_models WHERE expires_at IS NOT NULL AND expires_at <= ?'),
  };

  function read(row: unknown): AdapterPayload | undefined {
    if (row === undefined) return undefined;
    const { payload, expires_at: expiresAt } = row as { payload: unknown; expires_at: unknown };
    if (typeof expiresAt === 'number' && expiresAt <= clock()) return undefined;
    if (typeof payload !== 'string') return undefined;
    const parsed: unknown = JSON.parse(payload);
    return typeof parsed === 'object' && parsed !== null ? (parsed as AdapterPayload) : undefined;
  }

  return (model: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      const expiresAt = typeof expiresIn === 'number' && expiresIn > 0 ? clock() + expiresIn * 1000 : null;
      const grantId = GRANTABLE.has(model) && typeof payload.grantId === 'string' ? payload.grantId : null;
      const userCode = typeof payload.userCode === 'string' ? payload.userCode : null;
      const uid = model === 'Session' && typeof payload.uid === 'string' ? payload.uid : null;
      statements.upsert.run(model, id, JSON.stringify(payload), grantId, userCode, uid, expiresAt);
      writes += 1;
      if (writes % PURGE_EVERY === 0) statements.purge.run(clock());
    },
    async find(id) {
      return read(statements.find.get(model, id));
    },
    async findByUid(uid) {
      return read(statements.findByUid.get(model, uid));
    },
    async findByUserCode(userCode) {
      return read(statements.findByUserCode.get(model, userCode));
    },
    async consume(id) {
      statements.consume.run(Math.floor(clock() / 1000), model, id);
    },
    async destroy(id) {
      statements.destroy.run(model, id);
    },
    async revokeByGrantId(grantId) {
      statements.revokeByGrantId.run(grantId);
    },
  });
}

/** Deletes every expired row now (also done every few hundred writes). */
export function purgeExpired(db: AccountsDb, clock: Clock): number {
  return db.prepare('DELETE FROM oidc_models WHERE expires_at IS NOT NULL AND expires_at <= ?').run(clock()).changes;
}
