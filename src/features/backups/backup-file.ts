import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline as pipe, Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { decryptStep, encryptStep, ENCRYPTION_SCHEME, type BackupKey } from './backup-crypto.js';
import { parseManifest, type BackupManifest } from './backup-manifest.js';

/**
 * The backup file: `SWBAK1\n`, the gzip payload, the manifest JSON, then a 16-byte footer
 * (`SWMANIF1` + the manifest length as a big-endian uint64). The manifest goes last so the
 * file is written in one pass (row counts and checksums are known only at the end), and it is
 * still read without touching the payload.
 */
export const BACKUP_SUFFIX = '.swbak';
const MAGIC = Buffer.from('SWBAK1\n', 'latin1');
/** Where the payload starts in a backup file. */
export const PAYLOAD_OFFSET = MAGIC.length;
const FOOTER_MAGIC = Buffer.from('SWMANIF1', 'latin1');
const FOOTER_BYTES = 16;
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

export interface ContentDigest {
  readonly contentBytes: number;
  readonly contentSha256: string;
  readonly payloadBytes: number;
  readonly payloadSha256: string;
}

export function backupFile(dir: string, id: string): string {
  return join(dir, `${id}${BACKUP_SUFFIX}`);
}

/** Creates the backup directory (0700); an existing one is narrowed to 0700 too: backups hold password hashes. */
export async function ensureBackupDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}

/** A pass-through stream that counts and hashes what flows through it. */
class Digester extends Transform {
  bytes = 0;
  private readonly hash: Hash = createHash('sha256');
  private hex: string | null = null;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    this.hash.update(chunk);
    done(null, chunk);
  }

  sha256(): string {
    this.hex ??= this.hash.digest('hex');
    return this.hex;
  }
}

/**
 * Writes `<dir>/<id>.swbak` atomically: everything goes to a hidden temp file (mode 0600),
 * which is fsynced, renamed into place, and the directory fsynced. A failure removes the temp
 * file, so a listed backup is always complete. With a key the gzip payload is encrypted on its
 * way to the file (backup-crypto.ts): nothing unencrypted is ever written.
 */
export async function writeBackupFile(
  dir: string,
  id: string,
  content: Readable | AsyncIterable<Uint8Array>,
  manifestFor: (digest: ContentDigest) => BackupManifest,
  key: BackupKey | null = null,
): Promise<{ file: string; size: number; manifest: BackupManifest }> {
  await ensureBackupDir(dir);
  const temp = join(dir, `.${id}${BACKUP_SUFFIX}.tmp`);
  const file = backupFile(dir, id);
  // Streams write by path: a FileHandle lent to a write stream with autoClose off never
  // closes afterwards (its close waits for the stream's reference forever).
  let handle: FileHandle | null = null;
  try {
    const out = createWriteStream(temp, { flags: 'wx', mode: 0o600 });
    out.write(MAGIC);
    const contentDigest = new Digester();
    const payloadDigest = new Digester();
    if (key === null) await pipeline(content, contentDigest, createGzip({ level: 6 }), payloadDigest, out);
    else await pipeline(content, contentDigest, createGzip({ level: 6 }), encryptStep(key), payloadDigest, out);
    const manifest: BackupManifest = {
      ...manifestFor({
        contentBytes: contentDigest.bytes,
        contentSha256: contentDigest.sha256(),
        payloadBytes: payloadDigest.bytes,
        payloadSha256: payloadDigest.sha256(),
      }),
      ...(key !== null && { encryption: ENCRYPTION_SCHEME }),
    };
    const json = Buffer.from(JSON.stringify(manifest), 'utf8');
    const footer = Buffer.alloc(FOOTER_BYTES);
    FOOTER_MAGIC.copy(footer, 0);
    footer.writeBigUInt64BE(BigInt(json.length), 8);
    handle = await open(temp, 'a');
    await handle.write(Buffer.concat([json, footer]));
    await handle.sync();
    await handle.close();
    handle = null;
    await rename(temp, file);
    await syncDir(dir);
    return { file, size: (await stat(file)).size, manifest };
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
}

/** Makes a rename durable: the directory entry is only on disk once the directory is fsynced. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export type BackupHeader =
  | { readonly ok: true; readonly manifest: BackupManifest; readonly size: number }
  | { readonly ok: false; readonly size: number; readonly reason: string };

/** Reads `length` bytes at `position` of a stored backup (a local file or an object in a bucket). */
export type ReadAt = (position: number, length: number) => Promise<Buffer>;

/** Reads the manifest and checks the file's framing (no checksum: see `checkPayload`). */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    return await parseBackupHeader(size, async (position, length) => {
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, position);
      return buffer;
    });
  } finally {
    await handle.close();
  }
}

/** The framing checks of `readBackupHeader` over any random-access reader: three small reads. */
export async function parseBackupHeader(size: number, readAt: ReadAt): Promise<BackupHeader> {
  const bad = (reason: string): BackupHeader => ({ ok: false, size, reason });
  if (size < MAGIC.length + FOOTER_BYTES) return bad('file too short');
  const head = await readAt(0, MAGIC.length);
  if (!head.equals(MAGIC)) return bad('not a Siteward backup (bad magic)');
  const footer = await readAt(size - FOOTER_BYTES, FOOTER_BYTES);
  if (footer.length !== FOOTER_BYTES || !footer.subarray(0, 8).equals(FOOTER_MAGIC)) return bad('truncated or damaged (bad footer)');
  const length = footer.readBigUInt64BE(8);
  const room = BigInt(size - MAGIC.length - FOOTER_BYTES);
  if (length > room || length > BigInt(MAX_MANIFEST_BYTES)) return bad('damaged manifest length');
  const json = await readAt(size - FOOTER_BYTES - Number(length), Number(length));
  let parsed: unknown;
  try {
    parsed = JSON.parse(json.toString('utf8'));
  } catch {
    return bad('damaged manifest (not JSON)');
  }
  const manifest = parseManifest(parsed);
  if (!manifest) return bad('damaged manifest (unexpected shape)');
  if (manifest.payloadBytes !== size - MAGIC.length - FOOTER_BYTES - json.length) {
    return bad('payload length differs from the manifest');
  }
  return { ok: true, manifest, size };
}

/** The payload as stored (encrypted when the backup is). */
export function payloadStream(file: string, manifest: BackupManifest): Readable {
  if (manifest.payloadBytes === 0) return createReadStream(file, { start: 1, end: 0 });
  return createReadStream(file, { start: MAGIC.length, end: MAGIC.length + manifest.payloadBytes - 1 });
}

/** True when the stored payload still has the manifest's SHA-256. */
export async function checkPayload(file: string, manifest: BackupManifest): Promise<boolean> {
  const hash = createHash('sha256');
  for await (const chunk of payloadStream(file, manifest)) hash.update(chunk as Buffer);
  return hash.digest('hex') === manifest.payloadSha256;
}

/**
 * The decompressed (and decrypted) content. Call `matches()` after consuming it all: true when
 * its length and SHA-256 equal the manifest's (a restore checks this before it commits). An
 * encrypted backup needs the key (callers check it first: `checkedBackup`).
 */
export function openContent(
  file: string,
  manifest: BackupManifest,
  key: BackupKey | null = null,
): { stream: Readable; matches: () => boolean } {
  return contentOf(payloadStream(file, manifest), manifest, key);
}

/** `openContent` over any payload stream (the bounded-memory test watches how far it was read). */
export function contentOf(
  payload: Readable,
  manifest: BackupManifest,
  key: BackupKey | null,
): { stream: Readable; matches: () => boolean } {
  const digest = new Digester();
  // pipeline (not .pipe) so a gzip or read error destroys the returned stream and reaches the reader.
  const stream =
    manifest.encryption === undefined
      ? pipe(payload, createGunzip(), digest, () => undefined)
      : key === null
        ? new Readable({
            read() {
              this.destroy(new Error('the backup is encrypted and no key was given'));
            },
          })
        : pipe(payload, decryptStep(key), createGunzip(), digest, () => undefined);
  return {
    stream,
    matches: () => digest.bytes === manifest.contentBytes && digest.sha256() === manifest.contentSha256,
  };
}
