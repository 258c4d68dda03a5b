/**
 * Bounded memory (issue 24 item 10), measured in bytes rather than RSS: a backup's content flows
 * from its source through gzip and encryption into the file as it is produced. The source
 * records, at each chunk it hands over, how far it is ahead of what has reached the file; were
 * anything on the way to buffer the whole backup, that lead would grow to the whole size.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, type ReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBackupKey } from './backup-crypto.js';
import { contentOf, payloadStream, readBackupHeader, writeBackupFile } from './backup-file.js';
import { newBackupId } from './backup-manifest.js';

const CHUNK = 64 * 1024;
const TOTAL = 32 * 1024 * 1024;
const BOUND = 8 * 1024 * 1024;

describe('a backup streams through gzip and encryption', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'siteward-streaming-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const key = parseBackupKey('streaming test passphrase, long enough 4e1d');
  const id = newBackupId(new Date());
  let file = '';

  it(`keeps less than ${BOUND / 1024 / 1024} MiB between the source and the file while writing ${TOTAL / 1024 / 1024} MiB`, async () => {
    const temp = path.join(dir, `.${id}.swbak.tmp`);
    let produced = 0;
    let maxLead = 0;
    // Random bytes: gzip cannot shrink them, so what reached the file tracks what left the source.
    const block = randomBytes(CHUNK * 16);
    async function* source(): AsyncGenerator<Buffer> {
      while (produced < TOTAL) {
        let onDisk = 0;
        try {
          onDisk = statSync(temp).size;
        } catch {
          onDisk = 0;
        }
        maxLead = Math.max(maxLead, produced - onDisk);
        const offset = (produced / CHUNK) % 16;
        produced += CHUNK;
        yield block.subarray(offset * CHUNK, (offset + 1) * CHUNK);
      }
    }
    const written = await writeBackupFile(
      dir,
      id,
      source(),
      (digest) => ({
        format: 'siteward-backup',
        formatVersion: 1,
        id,
        time: new Date().toISOString(),
        backend: 'sqlite',
        schemaVersion: ['0001_initial'],
        tables: [],
        ...digest,
      }),
      key,
    );
    file = written.file;
    expect(written.manifest).toMatchObject({ contentBytes: TOTAL, encryption: 'age-v1' });
    expect(written.size).toBeGreaterThan(TOTAL);
    expect(maxLead).toBeGreaterThan(0);
    expect(maxLead).toBeLessThan(BOUND);
  });

  it(`reads it back (decrypt, gunzip) with less than ${BOUND / 1024 / 1024} MiB between the file and the reader`, async () => {
    const header = await readBackupHeader(file);
    if (!header.ok) throw new Error(header.reason);
    const payload = payloadStream(file, header.manifest) as ReadStream;
    const content = contentOf(payload, header.manifest, key);
    let consumed = 0;
    let maxLead = 0;
    await pipeline(
      content.stream,
      new Writable({
        highWaterMark: CHUNK,
        write(chunk: Buffer, _enc, done) {
          consumed += chunk.length;
          maxLead = Math.max(maxLead, payload.bytesRead - consumed);
          // A slow consumer: the file must be read as it goes, not ahead into memory.
          setImmediate(done);
        },
      }),
    );
    expect(consumed).toBe(TOTAL);
    expect(content.matches()).toBe(true);
    expect(payload.bytesRead).toBeGreaterThan(TOTAL);
    expect(maxLead).toBeLessThan(BOUND);
  });
});
