/**
 * `GET siteward/v1/audit/checkpoint` over HTTP: administrators only; the newest signed checkpoint
 * and whether its signature holds with this server's key.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { loadSecrets } from '../../auth/secrets.js';
import type { AuditCheckpointStatus } from '../../wire/audit-checkpoint.js';
import { call } from '../jetpack-v4/testing/http-client.js';
import { writeCheckpoint } from './checkpoints.js';
import { auditKeys, signCheckpoint, type AuditKeys } from './signing.js';

describe('siteward/v1/audit/checkpoint', () => {
  let t: TestApp;
  let admin: LoggedIn;
  let editor: LoggedIn;
  let keys: AuditKeys;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'siteward-checkpoint-'));
  const get = (as?: LoggedIn) => t.request({ path: '/wp-json/siteward/v1/audit/checkpoint', headers: as ? t.auth(as) : {} });

  beforeAll(async () => {
    // The app's own data directory, to read the key it signs with (secret.key there).
    t = await createTestApp({ startJobs: false, dataDir });
    keys = auditKeys((await loadSecrets({ dataDir, env: {} })).auditSigningSeed);
    admin = await t.loginAs('administrator', { login: 'root' });
    editor = await t.loginAs('editor', { login: 'ed' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers administrators only', async () => {
    expect((await get()).status).toBe(401);
    expect((await get(editor)).status).toBe(403);
  });

  it('says no checkpoint was signed yet, then names the newest one with a signature that holds', async () => {
    expect((await get(admin)).json).toEqual({ checkpoint: null, signature_valid: false });
    await call(t, 'POST', '/module/protect/active', { as: admin, body: { active: false } });
    const signed = await writeCheckpoint(t.store.auditLog, keys, 1_796_186_400_000);
    const answer = await get(admin);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      checkpoint: { last_id: signed.last_id, head_hash: signed.head_hash, count: signed.count, time: 1_796_186_400_000 },
      signature_valid: true,
    } satisfies AuditCheckpointStatus);
    expect(signed.last_id).toBeGreaterThan(0);
  });

  it('says so when the newest checkpoint was signed by another key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const head = await t.store.auditLog.head();
    const forged = signCheckpoint(
      { privateKey, publicKey },
      { last_id: head.lastId, head_hash: head.hash, count: head.count, time: 1_796_190_000_000 },
    );
    await t.store.auditLog.addCheckpoint(forged);
    const status = (await get(admin)).json as AuditCheckpointStatus;
    expect(status.checkpoint?.time).toBe(1_796_190_000_000);
    expect(status.signature_valid).toBe(false);
  });
});
