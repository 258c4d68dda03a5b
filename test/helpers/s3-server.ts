/**
 * A real S3-compatible server for tests (`s3rver`, on 127.0.0.1 port 0, files in a temp
 * directory), behind a TCP proxy the test can break: once broken, every connection that sends
 * more than a small request is cut — an upload interrupted half-way, as by a network failure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

export interface TestS3 {
  /** The proxy's URL (what Siteward is given as the endpoint). */
  readonly endpoint: string;
  readonly bucket: string;
  /** Upstream bytes forwarded so far. */
  readonly uploaded: () => number;
  /** From `afterBytes` more upstream bytes on, cut every connection that sends more than `bodyBytes` (default 64 KiB; requests without a body stay well under 4 KiB). */
  breakAfter(afterBytes: number, bodyBytes?: number): void;
  heal(): void;
  close(): Promise<void>;
}

export const S3_TEST_ENV = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' } as const;

export async function startTestS3(bucket = 'siteward-backups'): Promise<TestS3> {
  // s3rver ships no types: the constructor and the two methods used are narrowed here.
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const directory = mkdtempSync(path.join(tmpdir(), 'siteward-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const upstream = await server.run();
  let total = 0;
  let breakAt: number | null = null;
  let cutAbove = 64 * 1024;
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    const target = createConnection({ host: '127.0.0.1', port: upstream.port });
    sockets.add(client).add(target);
    let sent = 0;
    const cut = () => {
      client.destroy();
      target.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      total += chunk.length;
      sent += chunk.length;
      if (breakAt !== null && total > breakAt && sent > cutAbove) return cut();
      target.write(chunk);
    });
    target.on('data', (chunk: Buffer) => client.write(chunk));
    client.on('end', () => target.end());
    target.on('end', () => client.end());
    client.on('error', cut);
    target.on('error', cut);
    client.on('close', () => sockets.delete(client));
    target.on('close', () => sockets.delete(target));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    uploaded: () => total,
    breakAfter: (afterBytes, bodyBytes = 64 * 1024) => {
      breakAt = total + afterBytes;
      cutAbove = bodyBytes;
    },
    heal: () => void (breakAt = null),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => proxy.close(resolve));
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
