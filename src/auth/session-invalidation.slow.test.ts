import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SitewardApi } from '../plugins/api.js';
import { createTestApp, type LoggedIn, type TestApp } from '../../test/helpers/test-app.js';
import { pairStores, startWorkerPair, type WorkerPair } from '../../test/helpers/worker-pair.js';

function whoami(api: SitewardApi): void {
  api.registerRoute('auth-test/v1', '/whoami', {
    methods: ['GET', 'POST'],
    callback: (req) => ({ id: req.user.id, admin: req.user.can('manage_options') }),
  });
}

// On SQLite the requests of each poll phase read the credentials version; on PostgreSQL it is pushed by
// LISTEN/NOTIFY, so "at once" there means from the moment the notification has arrived.
describe.each(pairStores)('a credentials change made by one worker, on %s', (backend) => {
  let pair: WorkerPair;
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    pair = await startWorkerPair(backend, { plugins: [whoami] });
    ({ first, second } = pair);
  });
  afterAll(() => pair.close());
  const notified = () => pair.notified();
  const me = async (app: TestApp, user: LoggedIn) =>
    (await app.request({ path: '/wp-json/auth-test/v1/whoami', headers: app.auth(user) })).json;
  const writeAs = async (app: TestApp, user: LoggedIn) =>
    (await app.request({ method: 'POST', path: '/wp-json/auth-test/v1/whoami', headers: app.auth(user) })).status;

  it('logs the cookie out on the other worker at once', async () => {
    const user = await first.loginAs('editor');
    // The other worker has verified (and cached) the cookie.
    expect(await me(second, user)).toMatchObject({ id: user.userId });
    const out = await first.request({
      method: 'POST',
      path: '/logout',
      headers: { ...first.auth(user), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(out.status).toBe(200);
    await notified();
    const statuses = [];
    for (let i = 0; i < 20; i++) statuses.push(await writeAs(second, user));
    expect(statuses.filter((s) => s === 200)).toEqual([]);
  });

  it('ends the sessions of a changed password on the other worker at once', async () => {
    const user = await first.loginAs('editor');
    expect(await me(second, user)).toMatchObject({ id: user.userId });
    expect((await first.app.users.setPassword(user.login, 'a-brand-new-password')).ok).toBe(true);
    await notified();
    expect(await writeAs(second, user)).not.toBe(200);
  });

  it('applies a role change on the other worker at once', async () => {
    const user = await first.loginAs('administrator');
    expect(await me(second, user)).toMatchObject({ id: user.userId, admin: true });
    await first.store.users.setRoles(user.userId, ['subscriber']);
    await notified();
    expect(await me(second, user)).toMatchObject({ id: user.userId, admin: false });
  });
});

// Another process of `siteward` (here the CLI) on the same SQLite file. The versions this
// process read in a timer, just before that process committed, must not answer a request that
// arrives afterwards in the same event-loop turn (core/request-batch.ts).
describe('a password changed by another process, on sqlite', () => {
  const bin = fileURLToPath(new URL('../../bin/siteward.js', import.meta.url));
  let dir: string;
  let app: TestApp;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'siteward-other-process-'));
    app = await createTestApp({ dataDir: dir, plugins: [whoami] });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ends the session for a request sent right after the change, even in the turn of an earlier read', async () => {
    const user = await app.loginAs('editor');
    const headers = app.auth(user);
    expect((await app.request({ path: '/wp-json/auth-test/v1/whoami', headers })).json).toMatchObject({ id: user.userId });
    const port = (app.app.http.server.address() as AddressInfo).port;
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    const request = `GET /wp-json/auth-test/v1/whoami HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${headers.Cookie}\r\nX-WP-Nonce: ${headers['X-WP-Nonce']}\r\nConnection: close\r\n\r\n`;
    let cli: ReturnType<typeof spawnSync> | undefined;
    await new Promise<void>((resolve) => {
      setTimeout(() => {
        // A timer's read of the store (as a background job's) caches the state versions for this turn.
        void app.store.options.get('blogname');
        // Meanwhile another process changes the password (this process waits for it) …
        cli = spawnSync(process.execPath, [bin, 'user', 'set-password', user.login, '--password', 'changed-elsewhere-1'], {
          cwd: dir,
          env: { PATH: process.env.PATH ?? '', HOME: dir, SITEWARD_DATA_DIR: dir },
          encoding: 'utf8',
          timeout: 30_000,
        });
        // … and the request is sent after it: it reaches the socket before this turn's poll phase.
        socket.write(request);
        resolve();
      }, 0);
    });
    expect(cli?.status, String(cli?.stderr)).toBe(0);
    await once(socket, 'end');
    expect(answer.split(' ')[1]).not.toBe('200');
  });
});
