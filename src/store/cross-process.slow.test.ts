import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { testStores } from './testing/test-stores.js';

/**
 * Real worker processes on one database: each child loads the store's TypeScript through
 * Vite's SSR loader (no build step) and runs read-modify-writes while the test process does too.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const viteUrl = pathToFileURL(join(root, 'node_modules/vite/dist/node/index.js')).href;

const CHILD = `
// With -e there is no script path: the arguments start at argv[1].
const [viteUrl, root, optionsJson, mode, count] = process.argv.slice(1);
const { createServer } = await import(viteUrl);
const server = await createServer({
  root, configFile: false, logLevel: 'error', appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false },
  optimizeDeps: { noDiscovery: true, include: [] },
});
try {
  const { openStore } = await server.ssrLoadModule('/src/store/open-store.ts');
  const store = await openStore(JSON.parse(optionsJson));
  if (mode === 'increment') {
    for (let i = 0; i < Number(count); i++) {
      await store.options.update('xp_counter', (v) => (typeof v === 'number' ? v + 1 : 1));
    }
    await store.options.set('xp_child_' + process.pid, true);
  } else {
    // Ping-pong: answer each ping the parent writes; a stale cache would never see it.
    for (let k = 1; k <= Number(count); k++) {
      while ((await store.options.get('xp_ping')) !== k) await new Promise((r) => setTimeout(r, 1));
      await store.options.set('xp_pong', k);
    }
  }
  await store.close();
  process.stdout.write('done');
} finally {
  await server.close();
}
`;

function runChild(options: object, mode: 'increment' | 'pong', count: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = ['--input-type=module', '-e', CHILD, viteUrl, root, JSON.stringify(options), mode, String(count)];
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

describe.each(testStores())('several processes on one $name database', (backend) => {
  afterAll(() => backend.cleanup());

  it('lose no update when three processes increment one option', async () => {
    const store = await backend.open();
    await store.options.set('xp_counter', 0);
    const perChild = 150;
    const children = [runChild(backend.storeOptions(), 'increment', perChild), runChild(backend.storeOptions(), 'increment', perChild)];
    const mine = (async () => {
      for (let i = 0; i < perChild; i++) {
        await store.options.update('xp_counter', (v) => (typeof v === 'number' ? v + 1 : 1));
      }
    })();
    await Promise.all([...children, mine]);
    expect(await store.options.get('xp_counter')).toBe(3 * perChild);
    const names = (await backend.rawRows('options')).map((r) => String(r.name));
    expect(names.filter((n) => n.startsWith('xp_child_'))).toHaveLength(2);
  }, 60_000);

  it('see each other’s writes through their option caches', async () => {
    const store = await backend.open();
    const rounds = 20;
    const child = runChild(backend.storeOptions(), 'pong', rounds);
    for (let k = 1; k <= rounds; k++) {
      await store.options.set('xp_ping', k);
      while ((await store.options.get('xp_pong')) !== k) await new Promise((r) => setTimeout(r, 1));
    }
    expect(await child).toBe('done');
  }, 60_000);
});
