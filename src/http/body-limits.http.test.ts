import { request as httpRequest } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../test/helpers/test-app.js';

/** The attack of the report: about 10 MB of `[{},{},…]`, no credentials. */
const TINY_VALUES = Buffer.from(`[${Array(3_300_000).fill('{}').join(',')}]`);

/** Sends a body on its own connection; resolves with the status, or 0 when the server cut the upload. */
function post(port: number, path: string, body: Buffer, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/** The longest event-loop stall (ms) while `work` runs. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  try {
    await work();
  } finally {
    histogram.disable();
  }
  return histogram.max / 1e6;
}

describe('request bodies', () => {
  let app: TestApp;
  let port: number;
  let admin: LoggedIn;
  beforeAll(async () => {
    app = await createTestApp();
    port = (app.app.http.server.address() as { port: number }).port;
    admin = await app.loginAs('administrator');
  });
  afterAll(() => app.close());

  it('refuse a large anonymous JSON body with 413 before reading or parsing it, without stalling the server', async () => {
    const rssBefore = process.memoryUsage().rss;
    let statuses: number[] = [];
    const stall = await longestStall(async () => {
      statuses = await Promise.all([0, 1].map(() => post(port, '/wp-json/jetpack/v4/settings/update', TINY_VALUES)));
    });
    expect(statuses.every((s) => s === 413 || s === 0)).toBe(true);
    expect(statuses).toContain(413);
    // Parsing it took 2.7–4 s of blocked loop per body; refusing it takes none.
    expect(stall).toBeLessThan(250);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(150 * 1024 * 1024);
  });

  it('give a body for an unknown route the anonymous limit even with credentials', async () => {
    const body = Buffer.from(JSON.stringify({ pad: 'x'.repeat(100 * 1024) }));
    expect(await post(port, '/wp-json/nothing/v1/here', body, app.auth(admin))).toBe(413);
  });

  it('accept a large body from a logged-in user on a real route', async () => {
    const body = Buffer.from(JSON.stringify({ blogdescription: 'x'.repeat(100 * 1024) }));
    expect(await post(port, '/wp-json/jetpack/v4/settings/update', body, app.auth(admin))).not.toBe(413);
    const anonymous = await post(port, '/wp-json/jetpack/v4/settings/update', body);
    expect(anonymous).toBe(413);
  });

  it('refuse a JSON body with too many values as invalid JSON, quickly, even from a logged-in user', async () => {
    const many = Buffer.from(`[${Array(150_000).fill('0').join(',')}]`);
    let status = 0;
    const stall = await longestStall(async () => {
      const res = await app.request({
        method: 'POST',
        path: '/wp-json/jetpack/v4/settings/update',
        headers: { ...app.auth(admin), 'content-type': 'application/json' },
        body: many,
      });
      status = res.status;
      expect(res.json).toMatchObject({ code: 'rest_invalid_json' });
    });
    expect(status).toBe(400);
    expect(stall).toBeLessThan(250);
  });

  it('hold each route to the body it takes: 16 KiB for an application password, 1 MiB by default', async () => {
    const subscriber = await app.loginAs('subscriber');
    const path = '/wp-json/wp/v2/users/me/application-passwords';
    const small = await app.request({ method: 'POST', path, headers: app.auth(subscriber), body: { name: 'n'.repeat(20 * 1024) } });
    expect(small.status).toBe(413);
    expect(small.json).toMatchObject({
      code: 'rest_body_too_large',
      message: 'The request body is larger than this route takes (16384 bytes).',
      data: { status: 413, max_bytes: 16384 },
    });
    // 9 MB: refused from its declared length, before it is read.
    const huge = Buffer.from(JSON.stringify({ name: 'n'.repeat(9 * 1024 * 1024) }));
    expect(await post(port, path, huge, app.auth(subscriber))).toBe(413);
    expect((await app.request({ path, headers: app.auth(subscriber) })).json).toEqual([]);
    // A route that declares nothing takes 1 MiB (SITEWARD_BODY_LIMIT, 10 MB, caps what a route may declare).
    const settings = Buffer.from(JSON.stringify({ blogdescription: 'x'.repeat(2 * 1024 * 1024) }));
    expect(await post(port, '/wp-json/jetpack/v4/settings/update', settings, app.auth(admin))).toBe(413);
  });

  it('hold a batch sub-request to its own route’s limit', async () => {
    const res = await app.request({
      method: 'POST',
      path: '/wp-json/batch/v1',
      headers: app.auth(admin),
      body: {
        requests: [
          { method: 'POST', path: `/wp/v2/users/${admin.userId}`, body: { description: 'd'.repeat(1024 * 1024) } },
          { method: 'POST', path: `/wp/v2/users/${admin.userId}`, body: { description: 'fine' } },
        ],
      },
    });
    expect(res.status).toBe(207);
    const [big, fine] = (res.json as { responses: { status: number; body: { code?: string } }[] }).responses;
    expect(big).toMatchObject({ status: 413, body: { code: 'rest_body_too_large' } });
    expect(fine?.status).toBe(200);
  });

  it('keep the login page to small bodies', async () => {
    const body = Buffer.from(JSON.stringify({ username: 'x'.repeat(200 * 1024), password: 'y' }));
    expect(await post(port, '/login', body)).toBe(413);
  });
});
