/**
 * The AWS SDK warns on every process that uses it under Node < 22 (an 8-line
 * NodeVersionSupportWarning on stderr), which broke "stderr is for problems" and the server's
 * one-JSON-object-per-line log. A `siteward backup now` to a bucket, run as an operator runs it,
 * prints the backup's id and nothing on stderr.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3_TEST_ENV, startTestS3, type TestS3 } from './helpers/s3-server.js';

const bin = fileURLToPath(new URL('../bin/siteward.js', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'siteward-s3-quiet-'));
let s3: TestS3;

beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the built command without blocking this process (the S3 server answers from it). */
function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 90_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('backups to a bucket', () => {
  it('print no AWS SDK Node version warning on stderr', async () => {
    const result = await run(['backup', 'now'], {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      ...S3_TEST_ENV,
      SITEWARD_DATA_DIR: path.join(dir, 'data'),
      SITEWARD_BACKUP_S3_URL: `s3://${s3.bucket}/quiet?endpoint=${encodeURIComponent(s3.endpoint)}&region=us-east-1&forcePathStyle=true`,
    });
    expect(result.stderr).toBe('');
    expect([result.code, result.stdout]).toEqual([0, expect.stringMatching(/^\d{8}T\d{9}Z-[0-9a-f]{8}\n$/) as unknown]);
  }, 120_000);
});
