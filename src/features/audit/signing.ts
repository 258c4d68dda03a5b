/**
 * Signed checkpoints of the audit chain (docs/audit-log.md "Checkpoints"). The Ed25519 key is
 * derived from the master secret (SITEWARD_SECRET or `secret.key`), kept with the other secrets:
 * a person who can write the database but has not the secret cannot sign a rewritten head.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../../store/audit-chain.js';
import type { AuditCheckpoint } from '../../wire/audit.js';

/** PKCS#8 DER of an Ed25519 private key, up to its 32-byte seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface AuditKeys {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

/** The signing key pair from its 32-byte seed (`secrets.auditSigningSeed`). */
export function auditKeys(seed: Buffer): AuditKeys {
  if (seed.length !== 32) throw new Error('the audit signing seed must be 32 bytes');
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

/** What a checkpoint's signature covers: its canonical JSON without `signature`. */
function signedText(checkpoint: Omit<AuditCheckpoint, 'signature'>): Buffer {
  const { last_id, head_hash, count, time } = checkpoint;
  return Buffer.from(canonicalJson({ last_id, head_hash, count, time }), 'utf8');
}

export function signCheckpoint(keys: AuditKeys, checkpoint: Omit<AuditCheckpoint, 'signature'>): AuditCheckpoint {
  const { last_id, head_hash, count, time } = checkpoint;
  return { last_id, head_hash, count, time, signature: sign(null, signedText(checkpoint), keys.privateKey).toString('base64') };
}

export function checkpointSignatureHolds(publicKey: KeyObject, checkpoint: AuditCheckpoint): boolean {
  try {
    return verify(null, signedText(checkpoint), publicKey, Buffer.from(checkpoint.signature, 'base64'));
  } catch {
    return false;
  }
}
