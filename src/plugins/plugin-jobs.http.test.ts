import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';
import type { SitewardApi } from './api.js';

let runs = 0;
let now = 1_700_000_000_000;
function cleanupPlugin(api: SitewardApi): void {
  api.addJob({ name: 'my-plugin-cleanup', everyMs: 3_600_000, run: async () => void runs++ });
}

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ plugins: [cleanupPlugin], clock: () => now, startJobs: false });
});
afterAll(() => app.close());

describe('api.addJob', () => {
  it('runs a plugin job at its interval through the job runner', async () => {
    expect(app.app.jobs.names()).toEqual(expect.arrayContaining(['purge-expired-sessions', 'my-plugin-cleanup']));
    await app.app.jobs.tick();
    expect(runs).toBe(1);
    now += 3_599_000;
    await app.app.jobs.tick();
    expect(runs).toBe(1);
    now += 1_000;
    await app.app.jobs.tick();
    expect(runs).toBe(2);
  });

  it('refuses a second job of the same name at registration', async () => {
    const twice = (api: SitewardApi) => {
      api.addJob({ name: 'dup', everyMs: 1000, run: async () => {} });
      api.addJob({ name: 'dup', everyMs: 1000, run: async () => {} });
    };
    await expect(createTestApp({ plugins: [twice] })).rejects.toThrow(/already registered/);
  });
});
