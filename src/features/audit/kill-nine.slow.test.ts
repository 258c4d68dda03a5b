/**
 * No change without its event, even when the server dies mid-write: the built server (two
 * workers on one SQLite file) takes concurrent module toggles through application passwords
 * and is killed with SIGKILL while they run. Afterwards the events, replayed in id order, lead
 * exactly from the first state to the stored one (each event's `before` is the previous
 * event's `after`), and the chain verifies.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../test/helpers/free-port.js';
import { generateAppPassword, hashAppPassword } from '../../auth/app-passwords.js';
import { loadSecrets } from '../../auth/secrets.js';
import { featureMigrations } from '../../compose.js';
import { openStore } from '../../store/index.js';
import { builtInFeatures } from '../index.js';
import { auditKeys } from './signing.js';
import { verifyAuditLog } from './verify.js';

const bin = fileURLToPath(new URL('../../../bin/siteward.js', import.meta.url));
const PG = process.env.SITEWARD_TEST_PG;
const backends = [{ name: 'sqlite' as const }, ...(PG ? [{ name: 'postgres' as const }] : [])];

describe.each(backends)('a server on $name killed with SIGKILL during writes', ({ name }) => {
  const dir = mkdtempSync(path.join(tmpdir(), `siteward-kill9-${name}-`));
  const dataDir = path.join(dir, 'data');
  const schema = `sw_kill9_${randomBytes(5).toString('hex')}`;
  const databaseUrl = PG && name === 'postgres' ? `${PG}${PG.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}` : undefined;
  const storeOptions = { dataDir, migrations: featureMigrations(builtInFeatures), ...(databaseUrl && { databaseUrl }) };
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: PG });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  afterAll(async () => {
    if (databaseUrl) await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves no change without its event', async () => {
    if (databaseUrl) await admin(`CREATE SCHEMA ${schema}`);
    // An administrator with an application password, written straight into the store.
    const password = generateAppPassword();
    const setup = await openStore(storeOptions);
    const user = await setup.users.create({ login: 'boss', email: 'boss@example.org', displayName: 'Boss', passHash: 'x' });
    await setup.users.setRoles(user.id, ['administrator']);
    await setup.appPasswords.create({
      uuid: '0f5c1b7e-1111-4c3d-9a55-27b1c4b1a001',
      userId: user.id,
      name: 'kill test',
      hash: hashAppPassword(password),
      created: Date.now(),
    });
    await setup.close();

    const port = await freePort();
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      SITEWARD_DATA_DIR: dataDir,
      SITEWARD_BACKUP_SCHEDULE: 'off',
      ...(databaseUrl && { SITEWARD_DATABASE_URL: databaseUrl }),
    };
    const server = spawn(process.execPath, [bin, 'start', '--port', String(port), '--workers', '2'], { cwd: dir, env, detached: true });
    let out = '';
    server.stdout.on('data', (d: Buffer) => (out += d.toString()));
    server.stderr.on('data', (d: Buffer) => (out += d.toString()));
    for (let waited = 0; !out.includes('REST API:'); waited += 50) {
      if (waited > 60_000 || server.exitCode !== null) throw new Error(`the server did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }

    const auth = `Basic ${Buffer.from(`boss:${password}`).toString('base64')}`;
    let stop = false;
    let answered = 0;
    const toggler = async (i: number) => {
      for (let k = 0; !stop; k++) {
        const res = await fetch(`http://127.0.0.1:${port}/wp-json/jetpack/v4/module/protect/active`, {
          method: 'POST',
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ active: (i + k) % 2 === 0 }),
        }).catch(() => null);
        if (res === null) return;
        expect([200, 409]).toContain(res.status);
        answered += 1;
      }
    };
    const loops = Array.from({ length: 6 }, (_, i) => toggler(i));
    while (answered < 150) await new Promise((r) => setTimeout(r, 5));
    // Every process of the server at once, in the middle of the writes.
    process.kill(-server.pid!, 'SIGKILL');
    stop = true;
    await Promise.all(loops);

    const store = await openStore(storeOptions);
    try {
      const events = await store.auditLog.list({ action: 'module.' }, { limit: 100_000, offset: 0, order: 'asc' });
      expect(events.length).toBeGreaterThan(10);
      let state: unknown = null;
      for (const event of events) {
        const change = event.changes.active_modules as { before: unknown; after: unknown };
        expect(change.before).toEqual(state);
        expect(event.actor).toMatchObject({ kind: 'user', login: 'boss', credential: { type: 'application_password', name: 'kill test' } });
        state = change.after;
      }
      expect(await store.options.get('active_modules')).toEqual(state);
      const keys = auditKeys((await loadSecrets({ dataDir, env: {} })).auditSigningSeed);
      expect(await verifyAuditLog(store.auditLog, keys.publicKey)).toMatchObject({ ok: true });
    } finally {
      await store.close();
    }
  }, 120_000);
});
