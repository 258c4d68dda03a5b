/**
 * An S3-compatible bucket as a backup target (AWS S3, MinIO, Cloudflare R2, Backblaze B2),
 * through `@aws-sdk/client-s3`; uploads go through `@aws-sdk/lib-storage`, which splits large
 * files into multipart uploads with a bounded number of parts in memory and aborts the upload
 * (no half object is ever listed) when it fails.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { BACKUP_SUFFIX, parseBackupHeader } from './backup-file.js';
import { backupIdsIn, type RemoteTarget, type StoredBackup } from './backup-target.js';
import { s3Where, type S3Location } from './s3-url.js';
import { isStoreId } from './store-id.js';

/**
 * 5 MiB parts (S3's minimum), one in flight: lib-storage copies each part into one buffer while
 * the stream's chunks wait for the garbage collector, so a part costs about twice its size, and
 * a second one in flight pushed the upload's peak past the 200 MB budget (docs/performance.md).
 * Larger files get larger parts: S3 takes at most 10,000 of them.
 */
export const PART_BYTES = 5 * 1024 * 1024;
const MAX_PARTS = 10_000;
const QUEUE = 1;

export interface S3TargetOptions {
  /** Attempts of each request inside the SDK (its own back-off). Default the SDK's (3). */
  readonly sdkMaxAttempts?: number;
  /** Giving up on a connection or an unanswered request, in ms. */
  readonly connectTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /** Multipart part size (S3's minimum is 5 MiB). Default `PART_BYTES`. */
  readonly partBytes?: number;
}

/**
 * The SDK is loaded on first use, not at start: it is ~20 MB of RSS that every other command
 * and a server without an S3 target would carry for nothing (docs/performance.md).
 */
type Sdk = typeof S3Sdk;
let sdkLoaded: Promise<Sdk> | null = null;
const loadSdk = () => (sdkLoaded ??= import('@aws-sdk/client-s3'));

function notFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

export async function s3Client(location: S3Location, options: S3TargetOptions = {}): Promise<S3Client> {
  const config: S3ClientConfig = {
    forcePathStyle: location.forcePathStyle,
    ...(location.endpoint !== null && { endpoint: location.endpoint }),
    ...(location.region !== null
      ? { region: location.region }
      : !process.env.AWS_REGION && !process.env.AWS_PROFILE
        ? { region: 'us-east-1' }
        : {}),
    ...(options.sdkMaxAttempts !== undefined && { maxAttempts: options.sdkMaxAttempts }),
    // Plain checksums only when an operation requires them: several S3-compatible services
    // (older MinIO, B2, test servers) do not understand the SDK's streamed trailing checksums,
    // and every backup carries its own SHA-256 in the manifest anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: options.connectTimeoutMs ?? 10_000, requestTimeout: options.requestTimeoutMs ?? 120_000 },
  };
  quietNodeVersionWarning();
  const { S3Client } = await loadSdk();
  return new S3Client(config);
}

/**
 * The SDK prints an 8-line NodeVersionSupportWarning on stderr in every process that makes a
 * client under Node < 22, which would also break the server's one-JSON-object-per-line log. It
 * tells of SDK releases after the first week of January 2027; the version Siteward pins
 * (package.json) runs on Node 20, and README says when Node 22 becomes required. The SDK's own
 * switch turns it off, unless the operator set that switch themselves.
 */
function quietNodeVersionWarning(): void {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}

export function s3Target(location: S3Location, options: S3TargetOptions = {}): RemoteTarget {
  let made: Promise<{ client: S3Client; sdk: Sdk }> | null = null;
  const s3 = () => (made ??= Promise.all([s3Client(location, options), loadSdk()]).then(([client, sdk]) => ({ client, sdk })));
  const { bucket } = location;
  const base = location.prefix === '' ? '' : `${location.prefix}/`;
  const folder = (storeId: string | null) => (storeId === null ? base : `${base}${storeId}/`);
  const key = (storeId: string | null, id: string) => `${folder(storeId)}${id}${BACKUP_SUFFIX}`;

  async function listAll(prefix: string): Promise<{ names: Map<string, number>; folders: string[] }> {
    const names = new Map<string, number>();
    const folders: string[] = [];
    const { client, sdk } = await s3();
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, Delimiter: '/', ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) if (object.Key !== undefined) names.set(object.Key.slice(prefix.length), object.Size ?? 0);
      for (const p of page.CommonPrefixes ?? []) if (p.Prefix !== undefined) folders.push(p.Prefix.slice(prefix.length).replace(/\/$/, ''));
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return { names, folders };
  }

  async function range(storeId: string | null, id: string, position: number, length: number): Promise<Buffer> {
    if (length === 0) return Buffer.alloc(0);
    const { client, sdk } = await s3();
    const answer = await client.send(
      new sdk.GetObjectCommand({ Bucket: bucket, Key: key(storeId, id), Range: `bytes=${position}-${position + length - 1}` }),
    );
    return Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
  }

  async function size(storeId: string | null, id: string): Promise<number | null> {
    const { client, sdk } = await s3();
    try {
      return (await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key(storeId, id) }))).ContentLength ?? 0;
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async function body(storeId: string | null, id: string): Promise<Readable | null> {
    const { client, sdk } = await s3();
    try {
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key(storeId, id) }));
      return answer.Body instanceof Readable ? answer.Body : null;
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  return {
    kind: 's3',
    where: s3Where(location),
    async list(storeId): Promise<StoredBackup[]> {
      const { names } = await listAll(folder(storeId));
      return backupIdsIn([...names.keys()]).map((id) => ({ id, size: names.get(`${id}${BACKUP_SUFFIX}`) ?? 0 }));
    },
    async stores() {
      return (await listAll(base)).folders.filter(isStoreId).sort();
    },
    async header(storeId, id) {
      const total = await size(storeId, id);
      if (total === null) return null;
      return parseBackupHeader(total, (position, length) => range(storeId, id, position, length));
    },
    async fetch(storeId, id, tempDir) {
      const stream = await body(storeId, id);
      if (stream === null) return null;
      const dir = await mkdtemp(join(tempDir, '.siteward-download-'));
      const file = join(dir, `${id}${BACKUP_SUFFIX}`);
      const release = () => rm(dir, { recursive: true, force: true });
      try {
        await pipeline(stream, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
      } catch (error) {
        await release();
        throw error;
      }
      return { file, release };
    },
    async read(storeId, id) {
      const total = await size(storeId, id);
      if (total === null) return null;
      const stream = await body(storeId, id);
      return stream === null ? null : { stream, size: total };
    },
    async remove(storeId, id) {
      const { client, sdk } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key(storeId, id) }));
    },
    async upload(storeId, id, file) {
      const { Upload } = await import('@aws-sdk/lib-storage');
      const upload = new Upload({
        client: (await s3()).client,
        params: { Bucket: bucket, Key: key(storeId, id), Body: createReadStream(file), ContentType: 'application/octet-stream' },
        partSize: Math.max(options.partBytes ?? PART_BYTES, Math.ceil((await stat(file)).size / MAX_PARTS)),
        queueSize: QUEUE,
        leavePartsOnError: false,
      });
      await upload.done();
    },
  };
}
