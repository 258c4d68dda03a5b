/**
 * A store that cannot be opened, said so an operator can act: an older release on a store a newer
 * one upgraded (what happened, the two ways out), a PostgreSQL database that does not exist.
 * Through the command an operator runs (not Kysely's "corrupted migrations" or PostgreSQL's bare 3D000).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers/test-app.js';
import { main } from '../cli.js';
import type { Feature } from '../features/contract.js';
import { builtInFeatures } from '../features/index.js';

const root = mkdtempSync(path.join(tmpdir(), 'siteward-newer-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What a newer release adds: one more migration. */
const newerRelease: Feature = {
  name: 'from-the-future',
  migrations: { '9990_from_a_newer_release': () => ({ up: async () => undefined }) },
  register: () => undefined,
};

it('says the store was upgraded by a newer Siteward, and how to go on', async () => {
  const dataDir = path.join(root, 'data');
  const upgraded = await createTestApp({ dataDir, features: [...builtInFeatures, newerRelease], startJobs: false });
  await upgraded.close();
  const configFile = path.join(root, 'siteward.config.json');
  writeFileSync(configFile, JSON.stringify({ dataDir, homeUrl: 'http://example.org' }));
  const failure = await main(
    ['user', 'list', '--config', configFile],
    { out: () => undefined, err: () => undefined },
    {
      features: builtInFeatures,
    },
  ).then(
    () => null,
    (error: unknown) => (error as Error).message,
  );
  expect(failure).toBe(
    'This store was upgraded by a newer Siteward release (it has migration 9990_from_a_newer_release, which this release does not know), so this release cannot open it. Either run the newer release again, or restore a backup made before the upgrade (with the newer release: siteward backup restore <id>; or put back a copy of the data directory or database from before the upgrade).',
  );
});

it.skipIf(!process.env.SITEWARD_TEST_PG)(
  'names SITEWARD_DATABASE_URL and says to create a PostgreSQL database that does not exist',
  async () => {
    const base = process.env.SITEWARD_TEST_PG!;
    const configFile = path.join(root, 'missing-db.json');
    const databaseUrl = new URL(base);
    databaseUrl.pathname = '/siteward_no_such_database';
    writeFileSync(
      configFile,
      JSON.stringify({ dataDir: path.join(root, 'pg-data'), homeUrl: 'http://example.org', databaseUrl: databaseUrl.href }),
    );
    const failure = await main(['user', 'list', '--config', configFile], { out: () => undefined, err: () => undefined }).then(
      () => null,
      (error: unknown) => (error as Error).message,
    );
    expect(failure).toBe(
      'The PostgreSQL database "siteward_no_such_database" that SITEWARD_DATABASE_URL names does not exist. Create it first (createdb siteward_no_such_database, or CREATE DATABASE "siteward_no_such_database"; as a user allowed to), then start Siteward again: it creates its own tables.',
    );
  },
);
