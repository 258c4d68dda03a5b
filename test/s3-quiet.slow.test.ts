/**
 * The AWS SDK warns on every process that uses it under Node < 22 (an 8-line
 * NodeVersionSupportWarning on stderr), which broke "stderr is for problems" and the server's
 * one-JSON-object-per-line log. A `siteward backup now` to a bucket, run as an operator runs it,
 * prints the backup's id and nothing on stderr; the server's scheduled backup to the bucket
 * leaves its log all JSON lines (but the primary's start-up lines) and stderr empty.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';
import { within } from './helpers/within.js';
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

  it("leave the server's log one JSON object per line, without the warning, and stderr empty", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [bin, 'start', '--port', String(port), '--workers', '2'], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        LOG_LEVEL: 'info',
        ...S3_TEST_ENV,
        SITEWARD_DATA_DIR: path.join(dir, 'server-data'),
        SITEWARD_BACKUP_S3_URL: `s3://${s3.bucket}/server?endpoint=${encodeURIComponent(s3.endpoint)}&region=us-east-1&forcePathStyle=true`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // The scheduled backup at start, uploaded to the bucket by the worker holding the job lease.
      await within(
        90_000,
        async () => stdout,
        (out) => out.includes('"msg":"backup done"') || child.exitCode !== null,
        'the scheduled backup',
      );
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).not.toMatch(/NodeVersionSupportWarning|AWS SDK/);
    const primaryLines = /^(Create the first administrator: |Siteward is running at |REST API: )/;
    const lines = stdout.split('\n').filter((line) => line !== '');
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== 'object';
      } catch {
        return true;
      }
    });
    expect(notJson.filter((line) => !primaryLines.test(line))).toEqual([]);
    expect(lines.filter((line) => line.includes('"msg":"backup done"'))).toHaveLength(1);
  }, 150_000);
});
