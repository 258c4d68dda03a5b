import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helloFeature } from '../../docs/examples/hello-feature.js';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { builtInFeatures } from './index.js';

let app: TestApp;
let now = 1_700_000_000_000;
beforeAll(async () => {
  app = await createTestApp({
    features: [...builtInFeatures, helloFeature],
    env: { SITEWARD_SITE_NAME: 'Hello Site' },
    clock: () => now,
    startJobs: false,
  });
});
afterAll(() => app.close());

describe('the example feature of docs/architecture.md', () => {
  it('is shown unchanged in the document', () => {
    const doc = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
    const block = /<!-- example:hello-feature -->\n```ts\n([\s\S]*?)```\n<!-- \/example -->/.exec(doc);
    const file = readFileSync(new URL('../../docs/examples/hello-feature.ts', import.meta.url), 'utf8');
    expect(block?.[1]).toBe(file);
  });

  it('serves its REST route with its permission check', async () => {
    const anonymous = await app.request({ path: '/wp-json/hello/v1/greeting' });
    expect(anonymous.status).toBe(401);
    const admin = await app.loginAs('administrator');
    const res = await app.request({ path: '/wp-json/hello/v1/greeting', headers: app.auth(admin) });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ hello: 'Hello Site' });
  });

  it('serves its page, which knows who is logged in', async () => {
    const stranger = await app.request({ path: '/hello' });
    expect(stranger.status).toBe(200);
    expect(stranger.headers['content-type']).toMatch(/^text\/html/);
    expect(stranger.text).toContain('Hello, stranger.');
    const admin = await app.loginAs('administrator');
    const friend = await app.request({ path: '/hello', headers: { Cookie: admin.cookie } });
    expect(friend.text).toContain('Hello, friend.');
  });

  it('runs its job through the job runner', async () => {
    expect(app.app.jobs.names()).toContain('hello-tick');
    const admin = await app.loginAs('administrator');
    const read = async () =>
      ((await app.request({ path: '/wp-json/hello/v1/greeting', headers: app.auth(admin) })).json as { ticks: number }).ticks;
    expect(await read()).toBe(0);
    await app.app.jobs.tick();
    expect(await read()).toBe(1);
    await app.app.jobs.tick(); // not due again yet
    expect(await read()).toBe(1);
    now += 60_000;
    await app.app.jobs.tick();
    expect(await read()).toBe(2);
  });
});
