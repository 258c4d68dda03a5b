/**
 * `siteward audit tail -f` as the built program: it prints an event written after it started,
 * and Ctrl-C (SIGINT) ends it with exit 0 and nothing on standard error. Needs `npm run build:server`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { featureMigrations } from '../../compose.js';
import { builtInFeatures } from '../index.js';
import { openStore, type Store } from '../../store/index.js';

const BIN = fileURLToPath(new URL('../../../bin/siteward.js', import.meta.url));
const root = mkdtempSync(path.join(tmpdir(), 'siteward-tail-signal-'));
const dataDir = path.join(root, 'data');
const configFile = path.join(root, 'siteward.config.json');
let store: Store;

beforeAll(async () => {
  writeFileSync(configFile, JSON.stringify({ dataDir, homeUrl: 'http://example.org' }));
  store = await openStore({ dataDir, migrations: featureMigrations(builtInFeatures) });
});
afterAll(async () => {
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

it('follows until SIGINT, then exits 0', async () => {
  const child = spawn(process.execPath, [BIN, 'audit', 'tail', '-f', '--lines', '0', '--interval', '20', '--config', configFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    // Appended until the follower, which may still be starting, prints one.
    await vi.waitFor(
      async () => {
        await store.auditLog.append([
          {
            action: 'module.deactivated',
            result: 'ok',
            actor: { kind: 'cli', user_id: 0, login: '', credential: { type: 'os_user', name: 'ops' } },
            client_ip: '',
            user_agent: '',
            request_id: '',
            object: { type: 'module', id: 'protect', name: 'Protect' },
            changes: {},
          },
        ]);
        expect(out).toMatch(/module\.deactivated {2}ok {2}cli:ops {2}- {2}module:protect\n/);
      },
      { timeout: 30_000, interval: 200 },
    );
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(err).toBe('');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});
