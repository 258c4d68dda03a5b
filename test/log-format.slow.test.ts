import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';
import { within } from './helpers/within.js';

/**
 * The server's log lines as an operator sees them: `siteward start` (the built command) with its
 * output on a pipe, as a log shipper reads it, or on a terminal (through `script`, which gives
 * the command a pseudo-terminal).
 */
const bin = fileURLToPath(new URL('../bin/siteward.js', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'siteward-logs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A terminal colour sequence (ESC [ … m). */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`);
const REQUEST_LINE = /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/wp-json\/ 200 \d+(\.\d+)? ms$/m;

/** Starts the server (`command` wraps it, e.g. in `script`), asks for `/wp-json/` and returns what it printed once `done` holds. */
async function logOfOneRequest(
  env: Record<string, string>,
  done: (out: string) => boolean,
  command: (args: string[]) => string[] = (args) => args,
): Promise<string> {
  const port = await freePort();
  const args = command([process.execPath, bin, 'start', '--port', String(port)]);
  const child = spawn(args[0]!, args.slice(1), {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, SITEWARD_DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'info', ...env },
    detached: true,
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    await within(
      60_000,
      () =>
        fetch(`http://127.0.0.1:${port}/wp-json/`).then(
          (r) => r.status,
          () => 0,
        ),
      (s) => s === 200,
      `the server to start (${out})`,
    );
    await within(10_000, async () => out, done, 'the request line');
    return out;
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

describe('log lines', () => {
  it('are one JSON object per line on a pipe, as log shippers read them, and with LOG_FORMAT=json', async () => {
    for (const env of [{}, { LOG_FORMAT: 'json' }] as Record<string, string>[]) {
      const out = await logOfOneRequest(env, (text) => text.includes('"url":"/wp-json/"'));
      const line = out.split('\n').find((l) => l.includes('"url":"/wp-json/"'))!;
      expect(JSON.parse(line)).toMatchObject({ level: 30, msg: 'request', method: 'GET', url: '/wp-json/', status: 200 });
    }
  }, 150_000);

  it('are human lines with LOG_FORMAT=pretty, without colours when the output is no terminal', async () => {
    const out = await logOfOneRequest({ LOG_FORMAT: 'pretty' }, (text) => REQUEST_LINE.test(text));
    expect(out).toMatch(REQUEST_LINE);
    expect(out).not.toMatch(ANSI);
    expect(out).not.toContain('"msg"');
  }, 90_000);

  it.skipIf(!existsSync('/usr/bin/script'))(
    'are coloured human lines on a terminal, and JSON there when LOG_FORMAT=json says so',
    async () => {
      // `script` runs the command on a pseudo-terminal and copies what it prints to this pipe.
      const onTerminal = (args: string[]) => ['/usr/bin/script', '-qfec', args.map((a) => `'${a}'`).join(' '), '/dev/null'];
      const coloured = await logOfOneRequest(
        {},
        (text) => /GET \/wp-json\/ 200/.test(text.replace(new RegExp(ANSI.source, 'g'), '')),
        onTerminal,
      );
      expect(coloured).toMatch(ANSI);
      expect(coloured.replace(new RegExp(ANSI.source, 'g'), '').replace(/\r/g, '')).toMatch(REQUEST_LINE);
      const json = await logOfOneRequest({ LOG_FORMAT: 'json' }, (text) => text.includes('"url":"/wp-json/"'), onTerminal);
      expect(json).not.toMatch(ANSI);
    },
    150_000,
  );
});
