/**
 * Client-side encryption of backups with age (age-encryption.org/v1, the `age-encryption`
 * package): the gzip payload is encrypted inside the process, before the file is written or
 * uploaded, so neither the backup directory nor the object store ever holds it in clear. The
 * files can also be opened with the `age` command-line tool. Streams all the way (age
 * encrypts in 64 KiB chunks), so memory stays bounded whatever the backup's size.
 *
 * The manifest stays readable (time, store id, table names and row counts): listing,
 * retention and the checksum of what is stored work without the key.
 */
import { Readable } from 'node:stream';
import { scryptIdentity, scryptRecipient } from './age-scrypt.js';
import type { Decrypter } from 'age-encryption';

/** The operator's key: a passphrase, or an age identity (`AGE-SECRET-KEY-1…`). */
export type BackupKey = ({ readonly kind: 'passphrase' } | { readonly kind: 'identity' }) & {
  readonly secret: string;
  /** The setting it came from, for messages (default SITEWARD_BACKUP_ENCRYPTION_KEY). */
  readonly from?: string;
};

/** The manifest's name for the one encryption this code writes. */
export const ENCRYPTION_SCHEME = 'age-v1';

/**
 * scrypt's work factor for passphrases: 2^15 takes 32 MiB for a moment (age's default 2^18
 * takes 256 MiB, more than the whole backup's memory budget of 200 MB). It is a defence against
 * guessing weak passphrases only: operators are told to use a long random one (README), or an
 * age identity, which needs no key derivation at all. Derived natively (age-scrypt.ts).
 */
const SCRYPT_LOG_N = 15;

/** Reads the key text (the setting or the key file's content, trimmed). */
export function parseBackupKey(text: string, from?: string): BackupKey {
  const secret = text.trim();
  const kind = /^AGE-SECRET-KEY-1[0-9A-Z]+$/.test(secret) ? 'identity' : 'passphrase';
  return from === undefined ? { kind, secret } : { kind, secret, from };
}

/** Loaded when a backup is encrypted or opened, not at start (it brings post-quantum and curve code). */
const age = () => import('age-encryption');

type Step = (source: AsyncIterable<Uint8Array>) => AsyncGenerator<Uint8Array>;

/** A pipeline step that encrypts what flows through it. */
export function encryptStep(key: BackupKey): Step {
  return async function* encrypt(source) {
    const { Encrypter, identityToRecipient, Stanza } = await age();
    const encrypter = new Encrypter();
    encrypter.addRecipient(
      key.kind === 'identity' ? await identityToRecipient(key.secret) : scryptRecipient(key.secret, SCRYPT_LOG_N, Stanza),
    );
    const out = await encrypter.encrypt(Readable.toWeb(Readable.from(source)) as ReadableStream<Uint8Array>);
    yield* out;
  };
}

async function decrypter(key: BackupKey): Promise<Decrypter> {
  const d = new (await age()).Decrypter();
  d.addIdentity(key.kind === 'identity' ? key.secret : scryptIdentity(key.secret));
  return d;
}

/** Thrown when the key does not open a backup (the header names the recipients it was made for). */
export class WrongKeyError extends Error {
  override name = 'WrongKeyError';
}

/** A pipeline step that decrypts; a wrong key fails at the header, before any content flows. */
export function decryptStep(key: BackupKey): Step {
  return async function* decrypt(source) {
    let out: ReadableStream<Uint8Array>;
    try {
      out = await (await decrypter(key)).decrypt(Readable.toWeb(Readable.from(source)) as ReadableStream<Uint8Array>);
    } catch (error) {
      throw new WrongKeyError((error as Error).message);
    }
    yield* out;
  };
}

/** The header of an age file is far shorter than this (one stanza of ~100 bytes here). */
const HEADER_READ_BYTES = 64 * 1024;

/**
 * True when `key` opens the encrypted payload (after `skip` bytes). Reads only the first bytes: handing the whole
 * file stream to the decrypter and cancelling it after the header races the file's next
 * chunks into a closed web stream (Node 20 throws, uncaught) while the key is derived.
 */
export async function keyOpens(payload: Readable, key: BackupKey, skip = 0): Promise<boolean> {
  const chunks: Buffer[] = [];
  let read = 0;
  try {
    for await (const chunk of payload) {
      chunks.push(chunk as Buffer);
      read += (chunk as Buffer).length;
      if (read >= skip + HEADER_READ_BYTES) break;
    }
    const head = Buffer.concat(chunks).subarray(skip);
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
        controller.close();
      },
    });
    const out = await (await decrypter(key)).decrypt(source);
    await out.cancel();
    return true;
  } catch {
    return false;
  } finally {
    payload.destroy();
  }
}
