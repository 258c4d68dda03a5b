import { hkdfSync, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inspect } from 'node:util';

/** The file in the data directory that holds the generated master secret. */
export const SECRET_FILE = 'secret.key';
/** Minimum length of the master secret in bytes. */
export const MIN_SECRET_BYTES = 32;

export class SecretError extends Error {
  override readonly name = 'SecretError';
}

/**
 * Keys derived from the master secret, one per purpose, so that no key serves two purposes.
 * The object refuses to be printed: `console.log`, `JSON.stringify` and pino show `[redacted]`.
 */
export class Secrets {
  readonly #auth: Buffer;
  readonly #nonce: Buffer;
  readonly #encryption: Buffer;
  readonly #form: Buffer;
  readonly #auditSigning: Buffer;

  constructor(master: Uint8Array) {
    if (master.length < MIN_SECRET_BYTES) {
      throw new SecretError(`the master secret must be at least ${MIN_SECRET_BYTES} bytes long`);
    }
    this.#auth = derive(master, 'siteward auth key v1');
    this.#nonce = derive(master, 'siteward nonce key v1');
    this.#encryption = derive(master, 'siteward encryption key v1');
    this.#form = derive(master, 'siteward form token key v1');
    this.#auditSigning = derive(master, 'siteward audit signing key v1');
  }

  /** 32-byte seed of the Ed25519 key that signs audit checkpoints (src/features/audit/signing.ts). */
  get auditSigningSeed(): Buffer {
    return this.#auditSigning;
  }

  /** HMAC key of login cookies. */
  get authKey(): Buffer {
    return this.#auth;
  }

  /** HMAC key of nonces. */
  get nonceKey(): Buffer {
    return this.#nonce;
  }

  /** 32-byte key for encrypting stored tokens (e.g. AES-256-GCM). */
  get encryptionKey(): Buffer {
    return this.#encryption;
  }

  /** HMAC key of the page forms' anti-CSRF tokens (src/http/form-guard.ts). */
  get formKey(): Buffer {
    return this.#form;
  }

  toJSON(): string {
    return '[redacted]';
  }

  toString(): string {
    return '[redacted]';
  }

  [inspect.custom](): string {
    return 'Secrets [redacted]';
  }
}

function derive(master: Uint8Array, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, 'siteward', label, 32));
}

export interface LoadSecretsOptions {
  dataDir: string;
  /** Where to read `SITEWARD_SECRET` from; defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The master secret comes from `SITEWARD_SECRET` (its UTF-8 bytes, at least 32) when set, which
 * is how several hosts share one; otherwise from `<dataDir>/secret.key`, generated on first
 * start (32 random bytes, base64url, mode 0600). The file holds exactly what `SITEWARD_SECRET`
 * would, so its content can be copied to other hosts.
 *
 * @example
 * const secrets = await loadSecrets({ dataDir: './data' });
 */
export async function loadSecrets(options: LoadSecretsOptions): Promise<Secrets> {
  const env = options.env ?? process.env;
  const fromEnv = env.SITEWARD_SECRET;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (Buffer.byteLength(fromEnv, 'utf8') < MIN_SECRET_BYTES) {
      throw new SecretError(`SITEWARD_SECRET is too short: it must be at least ${MIN_SECRET_BYTES} bytes`);
    }
    return new Secrets(Buffer.from(fromEnv, 'utf8'));
  }
  return new Secrets(Buffer.from(await readOrCreateSecretFile(options.dataDir), 'utf8'));
}

async function readOrCreateSecretFile(dataDir: string): Promise<string> {
  const file = join(dataDir, SECRET_FILE);
  const existing = await readSecretFile(file);
  if (existing !== null) return existing;

  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  // Write a private temp file, then link it into place: link() fails if another worker won the
  // race, and nobody ever reads a half-written file.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temp, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temp, file);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = await readSecretFile(file);
    if (winner === null) throw new SecretError(`${file} vanished while it was being created`);
    return winner;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

async function readSecretFile(file: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const secret = text.trim();
  if (Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) {
    throw new SecretError(`${file} holds fewer than ${MIN_SECRET_BYTES} bytes; delete it to generate a new secret`);
  }
  return secret;
}
