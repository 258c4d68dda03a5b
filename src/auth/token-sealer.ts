import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

export class SealError extends Error {
  override readonly name = 'SealError';
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for secrets at rest. The key is HKDF-SHA256(master, salt "siteward",
 * info "siteward connection tokens"); every value gets a random 12-byte IV, and the
 * `context` (e.g. the vault key and field) is authenticated as AAD, so a value copied to
 * another user's record does not open. Format: `v1.<base64url(iv | ciphertext | tag)>`.
 */
export class TokenSealer {
  readonly #key: Buffer;

  constructor(master: Uint8Array) {
    if (master.length < 32) throw new SealError('the master secret must be at least 32 bytes long');
    this.#key = Buffer.from(hkdfSync('sha256', master, 'siteward', 'siteward connection tokens', 32));
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** The plaintext, or a SealError when the value is not ours, was altered, or belongs to another context. */
  open(sealed: unknown, context: string): string {
    if (typeof sealed !== 'string' || !sealed.startsWith(`${VERSION}.`)) throw new SealError('not an encrypted value');
    const raw = Buffer.from(sealed.slice(VERSION.length + 1), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new SealError('encrypted value is truncated');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SealError('encrypted value was altered or sealed with another key');
    }
  }

  toJSON(): string {
    return '[redacted]';
  }

  [inspect.custom](): string {
    return 'TokenSealer [redacted]';
  }
}
