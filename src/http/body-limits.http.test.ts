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

  it('keep the login page to small bodies', async () => {
    const body = Buffer.from(JSON.stringify({ username: 'x'.repeat(200 * 1024), password: 'y' }));
    expect(await post(port, '/login', body)).toBe(413);
  });
});
