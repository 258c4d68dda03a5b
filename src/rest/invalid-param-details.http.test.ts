import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type LoggedIn, type TestApp } from '../../test/helpers/test-app.js';
import type { SitewardApi } from '../plugins/api.js';

let t: TestApp;
let admin: LoggedIn;
beforeAll(async () => {
  const plugin = (api: SitewardApi) => {
    api.registerRoute('demo/v1', '/count', { methods: 'POST', args: { n: { type: 'integer' } }, callback: () => 'ok' });
  };
  t = await createTestApp({ plugins: [plugin] });
  admin = await t.loginAs('administrator');
});
afterAll(async () => t.close());

const call = (method: string, path: string, body?: object) => t.request({ method, path: `/wp-json${path}`, headers: t.auth(admin), body });

describe('rest_invalid_param details (docs/spec/compat.md §9)', () => {
  it("wp/v2 and batch/v1 answer WordPress 5.7+'s details: each argument's own code, message and data", async () => {
    const res = await call('GET', '/wp/v2/users?per_page=101&context=nope');
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): context, per_page',
      data: {
        status: 400,
        params: {
          context: 'context is not one of view, embed, edit.',
          per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)',
        },
        details: {
          context: { code: 'rest_invalid_param', message: 'context is not one of view, embed, edit.', data: { status: 400 } },
          per_page: {
            code: 'rest_invalid_param',
            message: 'per_page must be between 1 (inclusive) and 100 (inclusive)',
            data: { status: 400 },
          },
        },
      },
    });
    const batch = await call('POST', '/batch/v1', { validation: 'sometimes', requests: [] });
    expect((batch.json as { data: { details: Record<string, unknown> } }).data.details).toHaveProperty('validation');
  });

  it("jetpack/v4 and plugins' routes keep the 2016 bytes: params only", async () => {
    const jetpack = await call('POST', '/jetpack/v4/module/protect/active', { active: 'maybe' });
    expect(jetpack.text).toBe(
      '{"code":"rest_invalid_param","message":"Invalid parameter(s): active","data":{"status":400,"params":{"active":"active must be true, false, 0 or 1."}}}',
    );
    const plugin = await call('POST', '/demo/v1/count', { n: 'many' });
    expect(plugin.text).toBe(
      '{"code":"rest_invalid_param","message":"Invalid parameter(s): n","data":{"status":400,"params":{"n":"n is not of type integer."}}}',
    );
  });
});
