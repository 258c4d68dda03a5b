import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers/test-app.js';

describe('GET /healthz', () => {
  it('answers 200 in JSON while the store answers, and 503 once it does not', async () => {
    const app = await createTestApp();
    try {
      const ok = await app.request({ path: '/healthz' });
      expect(ok.status).toBe(200);
      expect(ok.headers['content-type']).toMatch(/^application\/json/);
      expect(ok.json).toEqual({ status: 'ok', store: 'sqlite' });
      await app.store.close();
      const down = await app.request({ path: '/healthz' });
      expect(down.status).toBe(503);
      expect(down.headers['retry-after']).toBe('5');
      expect(down.json).toEqual({ status: 'unavailable', store: 'sqlite' });
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});
