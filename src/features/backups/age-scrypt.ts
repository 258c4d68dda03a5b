/**
 * age's passphrase stanza (age-encryption.org/v1, "scrypt" recipient type) with Node's native
 * scrypt and ChaCha20-Poly1305 instead of `age-encryption`'s pure-JavaScript ones. Same bytes
 * in the header, so files stay readable by `age -d` and by `age-encryption`, and backups
 * written before this change open here; what differs is memory: the JavaScript scrypt keeps
 * its 128·r·N work area (and copies) in the heap until the next garbage collection, ~55 MB of
 * RSS at 2^15, while OpenSSL's is freed the moment the key is derived (docs/performance.md).
 */
import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import type { Identity, Recipient, Stanza as StanzaType } from 'age-encryption';

const LABEL = 'age-encryption.org/v1/scrypt';
const TAG_BYTES = 16;
/** Highest work factor a stored header may ask for when opening: 2^18 (age's default) needs 256 MiB. */
export const MAX_OPEN_LOG_N = 18;

type StanzaClass = new (args: string[], body: Uint8Array) => StanzaType;

/**
 * Keys derived for opening, by salt and work factor (a file's salt is random, so this is one
 * entry per backup): checking the key before a download and decrypting after it derive once.
 */
const opened = new Map<string, { passphrase: string; key: Promise<Buffer> }>();
const OPENED_MAX = 4;

function openingKey(passphrase: string, salt: Buffer, logN: number): Promise<Buffer> {
  const id = `${logN}:${salt.toString('hex')}`;
  const known = opened.get(id);
  if (known !== undefined && known.passphrase === passphrase) return known.key;
  const key = deriveKey(passphrase, salt, logN);
  opened.set(id, { passphrase, key });
  key.catch(() => opened.delete(id));
  if (opened.size > OPENED_MAX) opened.delete(opened.keys().next().value as string);
  return key;
}

function deriveKey(passphrase: string, salt: Uint8Array, logN: number): Promise<Buffer> {
  const N = 2 ** logN;
  const r = 8;
  const labelAndSalt = Buffer.concat([Buffer.from(LABEL, 'latin1'), salt]);
  return new Promise((resolve, reject) => {
    scrypt(passphrase, labelAndSalt, 32, { N, r, p: 1, maxmem: 128 * N * r + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** The passphrase recipient: a random 16-byte salt, the work factor, the file key sealed with a zero nonce. */
export function scryptRecipient(passphrase: string, logN: number, Stanza: StanzaClass): Recipient {
  return {
    async wrapFileKey(fileKey) {
      const salt = randomBytes(16);
      const cipher = createCipheriv('chacha20-poly1305', await deriveKey(passphrase, salt, logN), Buffer.alloc(12), {
        authTagLength: TAG_BYTES,
      });
      const body = Buffer.concat([cipher.update(fileKey), cipher.final(), cipher.getAuthTag()]);
      return [new Stanza(['scrypt', salt.toString('base64').replace(/=+$/, ''), String(logN)], body)];
    },
  };
}

/**
 * The passphrase identity: null (not this identity) for other stanzas or a wrong passphrase,
 * an error for a malformed scrypt stanza, as age's own rules say.
 */
export function scryptIdentity(passphrase: string): Identity {
  return {
    async unwrapFileKey(stanzas) {
      const s = stanzas.find((one) => one.args[0] === 'scrypt');
      if (s === undefined) return null;
      if (stanzas.length !== 1) throw new Error('scrypt recipient is not the only one in the header');
      const [, saltText, logNText] = s.args;
      if (s.args.length !== 3 || saltText === undefined || logNText === undefined || !/^[1-9][0-9]*$/.test(logNText))
        throw new Error('invalid scrypt stanza');
      const salt = Buffer.from(saltText, 'base64');
      if (salt.length !== 16 || /[=]/.test(saltText) || s.body.length !== 32) throw new Error('invalid scrypt stanza');
      const logN = Number(logNText);
      if (logN > MAX_OPEN_LOG_N) throw new Error(`scrypt work factor 2^${logN} is too high (at most 2^${MAX_OPEN_LOG_N})`);
      const decipher = createDecipheriv('chacha20-poly1305', await openingKey(passphrase, salt, logN), Buffer.alloc(12), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAuthTag(s.body.subarray(16));
      try {
        return new Uint8Array(Buffer.concat([decipher.update(s.body.subarray(0, 16)), decipher.final()]));
      } catch {
        return null;
      }
    },
  };
}
