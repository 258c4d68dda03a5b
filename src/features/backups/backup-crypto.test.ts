/**
 * The passphrase stanza is derived natively (age-scrypt.ts) but must stay age's: files the
 * backups write open with the `age-encryption` library's own passphrase code (what `age -d`
 * does), and files that library wrote (backups from before the change) open here.
 */
import { Readable } from 'node:stream';
import { Decrypter, Encrypter } from 'age-encryption';
import { describe, expect, it } from 'vitest';
import { decryptStep, encryptStep, parseBackupKey, WrongKeyError } from './backup-crypto.js';

const PASSPHRASE = 'crypto test passphrase, long enough 7c21';
const TEXT = 'row 1\nrow 2\n'.repeat(10_000);

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

const through = (step: ReturnType<typeof encryptStep>, input: Buffer) => collect(step(Readable.from([input])));

describe('backup encryption with a passphrase', () => {
  it('writes files that age’s own passphrase decryption opens', async () => {
    const sealed = await through(encryptStep(parseBackupKey(PASSPHRASE)), Buffer.from(TEXT));
    expect(sealed.subarray(0, 60).toString('latin1')).toMatch(/^age-encryption\.org\/v1\n-> scrypt \S{22} 15\n/);
    const d = new Decrypter();
    d.addPassphrase(PASSPHRASE);
    expect(Buffer.from(await d.decrypt(sealed)).toString()).toBe(TEXT);
  });

  it('opens files that age’s own passphrase encryption wrote', async () => {
    const e = new Encrypter();
    e.setPassphrase(PASSPHRASE);
    e.setScryptWorkFactor(12);
    const sealed = Buffer.from(await e.encrypt(TEXT));
    expect((await through(decryptStep(parseBackupKey(PASSPHRASE)), sealed)).toString()).toBe(TEXT);
  });

  it('refuses a wrong passphrase before any content flows', async () => {
    const sealed = await through(encryptStep(parseBackupKey(PASSPHRASE)), Buffer.from(TEXT));
    await expect(through(decryptStep(parseBackupKey('another passphrase entirely')), sealed)).rejects.toBeInstanceOf(WrongKeyError);
  });

  it('refuses a header that asks for more scrypt memory than a backup may use', async () => {
    const e = new Encrypter();
    e.setPassphrase(PASSPHRASE);
    e.setScryptWorkFactor(12);
    const sealed = Buffer.from(await e.encrypt(TEXT));
    const tampered = Buffer.from(sealed.toString('latin1').replace(/^(age-encryption\.org\/v1\n-> scrypt \S+) 12\n/, '$1 19\n'), 'latin1');
    await expect(through(decryptStep(parseBackupKey(PASSPHRASE)), tampered)).rejects.toThrow(/work factor 2\^19 is too high/);
  });
});
