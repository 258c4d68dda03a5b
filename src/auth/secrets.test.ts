import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSecrets, SecretError, Secrets, SECRET_FILE } from './secrets.js';

describe('secrets', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'siteward-secrets-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('generates secret.key with mode 0600 on first start and reuses it afterwards', async () => {
    const first = await loadSecrets({ dataDir: dir, env: {} });
    const file = join(dir, SECRET_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim().length).toBeGreaterThanOrEqual(43);
    const second = await loadSecrets({ dataDir: dir, env: {} });
    expect(second.authKey.toString('hex')).toBe(first.authKey.toString('hex'));
  });

  it('lets concurrent first starts agree on one secret', async () => {
    const all = await Promise.all(Array.from({ length: 8 }, () => loadSecrets({ dataDir: dir, env: {} })));
    expect(new Set(all.map((s) => s.nonceKey.toString('hex')))).toEqual(new Set([all[0].nonceKey.toString('hex')]));
  });

  it('takes SITEWARD_SECRET when set, matching a file with the same content', async () => {
    const secret = 'x'.repeat(40);
    const fromEnv = await loadSecrets({ dataDir: dir, env: { SITEWARD_SECRET: secret } });
    await writeFile(join(dir, SECRET_FILE), `${secret}\n`, { mode: 0o600 });
    const fromFile = await loadSecrets({ dataDir: dir, env: {} });
    expect(fromFile.authKey.toString('hex')).toBe(fromEnv.authKey.toString('hex'));
  });

  it('refuses a SITEWARD_SECRET shorter than 32 bytes with a clear error', async () => {
    await expect(loadSecrets({ dataDir: dir, env: { SITEWARD_SECRET: 'short' } })).rejects.toThrow(
      new SecretError('SITEWARD_SECRET is too short: it must be at least 32 bytes'),
    );
  });

  it('refuses a truncated secret.key', async () => {
    await writeFile(join(dir, SECRET_FILE), 'abc');
    await expect(loadSecrets({ dataDir: dir, env: {} })).rejects.toBeInstanceOf(SecretError);
  });

  it('derives distinct 32-byte keys per purpose', () => {
    const s = new Secrets(Buffer.alloc(32, 1));
    const keys = [s.authKey, s.nonceKey, s.encryptionKey];
    for (const k of keys) expect(k.length).toBe(32);
    expect(new Set(keys.map((k) => k.toString('hex'))).size).toBe(3);
  });

  it('never prints its keys', () => {
    const s = new Secrets(Buffer.alloc(32, 1));
    const hex = s.authKey.toString('hex');
    expect(JSON.stringify({ s })).toBe('{"s":"[redacted]"}');
    expect(inspect(s)).not.toContain(hex.slice(0, 8));
    expect(`${s}`).toBe('[redacted]');
  });
});
