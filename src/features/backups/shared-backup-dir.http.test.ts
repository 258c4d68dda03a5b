/**
 * Issue 20 item 8: two stores pointed at one backup directory (a SQLite site and a second
 * store — PostgreSQL when `SITEWARD_TEST_PG` is set, else another SQLite site) must each see
 * only their own backups: the status route, `backup list`, retention and restore.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, type PgSchema } from '../../../test/helpers/pg-schema.js';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { main } from '../../cli.js';
import { call } from '../jetpack-v4/testing/http-client.js';
import { readStoreId } from './store-id.js';

const T0 = Date.UTC(2024, 5, 1, 0, 1, 0);
const DAY = 86_400_000;

interface Site {
  t: TestApp;
  config: string;
  backend: 'sqlite' | 'postgres';
}

describe('two stores sharing one backup directory', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'siteward-shared-backups-'));
  const backupDir = path.join(root, 'backups');
  let now = T0;
  let pgSchema: PgSchema | null = null;
  const sites: Site[] = [];

  async function site(name: string, databaseUrl?: string): Promise<Site> {
    const dataDir = path.join(root, name);
    const env = { SITEWARD_BACKUP_DIR: backupDir, SITEWARD_BACKUP_KEEP: '2', ...(databaseUrl && { SITEWARD_DATABASE_URL: databaseUrl }) };
    const t = await createTestApp({ dataDir, env, clock: () => now, startJobs: false });
    const config = path.join(root, `${name}.json`);
    writeFileSync(
      config,
      JSON.stringify({ dataDir, backupDir, backupKeep: 2, homeUrl: 'http://example.org', ...(databaseUrl && { databaseUrl }) }),
    );
    return { t, config, backend: databaseUrl ? 'postgres' : 'sqlite' };
  }

  async function cli(s: Site, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main([...args, '--config', s.config], { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  beforeAll(async () => {
    pgSchema = await freshPgSchema();
    sites.push(await site('a'));
    sites.push(await site('b', pgSchema?.url));
  });

  afterAll(async () => {
    for (const s of sites) await s.t.close();
    await pgSchema?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('gives each store an id of its own, recorded in each of its backups', async () => {
    const [a, b] = await Promise.all(sites.map((s) => readStoreId(s.t.store)));
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).not.toBe(a);
  });

  it("shows, lists, prunes and restores only the store's own backups", async () => {
    const [a, b] = sites;
    // Three days of scheduled backups on both, interleaved; each keeps 2.
    const taken: Record<string, string[]> = { a: [], b: [] };
    for (let day = 0; day < 3; day++) {
      now = T0 + day * DAY;
      for (const [name, s] of [
        ['a', a],
        ['b', b],
      ] as const) {
        await s.t.app.jobs.tick();
        const run = (await s.t.store.status.get('backups.last-scheduled-run'))?.value as { ok: boolean; id: string };
        expect(run.ok).toBe(true);
        taken[name].push(run.id);
      }
    }
    for (const [name, s] of [
      ['a', a],
      ['b', b],
    ] as const) {
      const admin = await s.t.loginAs('administrator', { login: `admin-${name}` });
      const data = (await call(s.t, 'GET', '/module/vaultpress/data', { as: admin })).json as {
        data: { backups: { count: number; id: string; store_id: string; backend: string } };
      };
      expect(data.data.backups).toMatchObject({ count: 2, id: taken[name][2], store_id: await readStoreId(s.t.store), backend: s.backend });

      const listed = JSON.parse((await cli(s, 'backup', 'list', '--format', 'json')).out) as {
        id: string;
        store: string;
        backend: string;
      }[];
      expect(listed.map((e) => e.id)).toEqual(taken[name].slice(1));
      expect(listed.map(({ store, backend }) => ({ store, backend }))).toEqual(
        listed.map(() => ({ store: data.data.backups.store_id, backend: s.backend })),
      );
      const text = (await cli(s, 'backup', 'list')).out;
      expect(text).toContain(`(this store: ${data.data.backups.store_id}, ${s.backend})`);
      for (const other of taken[name === 'a' ? 'b' : 'a']) expect(text).not.toContain(other);
    }
    // Retention per store: prune --dry-run with keep 1 names only this store's older backup, and deletes nothing.
    const keepOne = path.join(root, 'a-keep-one.json');
    writeFileSync(keepOne, JSON.stringify({ ...JSON.parse(readFileSync(a.config, 'utf8')), backupKeep: 1 }));
    const dry = await cli({ ...a, config: keepOne }, 'backup', 'prune', '--dry-run');
    // (The CLI's clock is today's: the 2024 backups are past the max age, and the newest always stays.)
    expect(dry.out.split('\n')).toEqual([
      `${backupDir}:`,
      `  ${taken.a[1]}  would delete`,
      `  ${taken.a[2]}  keep (newest)`,
      '  1 would be deleted, 1 kept',
    ]);
    expect(JSON.parse((await cli(a, 'backup', 'list', '--format', 'json')).out)).toHaveLength(2);
    // Restoring the other store's backup by its id is refused with who owns it.
    await a.t.close();
    const refused = await cli(a, 'backup', 'restore', taken.b[2]);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(
      `error: backup ${taken.b[2]} in ${backupDir} belongs to store ${await readStoreId(b.t.store)}, not to this store (${JSON.parse((await cli(a, 'backup', 'list', '--format', 'json')).out)[0].store}); add --from-store ${await readStoreId(b.t.store)} to use it`,
    );
    sites[0] = {
      ...a,
      t: await createTestApp({
        dataDir: path.join(root, 'a'),
        env: { SITEWARD_BACKUP_DIR: backupDir },
        clock: () => now,
        startJobs: false,
      }),
    };
  });
});
