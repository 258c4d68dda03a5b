/** Third-party plugins: `api.on` hears the plugin's events and `api.registerModule` adds modules. */
import { afterEach, describe, expect, it } from 'vitest';
import type { SitewardApi } from '../../plugins/api.js';
import type { SitewardEvents } from '../../core/events.js';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { call } from '../jetpack-v4/testing/http-client.js';

let t: TestApp;
afterEach(() => t.close());

describe('hooks for third-party plugins', () => {
  it('hear module, option, setting and reset events, and register their own modules', async () => {
    const heard: Array<[string, unknown]> = [];
    const listen = (api: SitewardApi) => {
      for (const event of [
        'module.activated',
        'module.deactivated',
        'module.option_updated',
        'setting.updated',
        'options.reset',
      ] as const) {
        api.on(event, (payload: SitewardEvents[typeof event]) => void heard.push([event, payload]));
      }
      api.registerModule({
        slug: 'hello-world',
        name: 'Hello World',
        description: 'Says hello.',
        introduced: '1.0',
        requires_connection: false,
        options: { hello_world_greeting: { description: 'Greeting', type: 'string', default: 'Hello' } },
      });
    };
    t = await createTestApp({ plugins: [listen] });
    const admin = await t.loginAs('administrator');

    await call(t, 'PUT', '/module/hello-world/active', { as: admin, body: { active: true } });
    const updated = await call(t, 'PUT', '/module/hello-world', { as: admin, body: { hello_world_greeting: 'Hi' } });
    expect(updated.status).toBe(200);
    await call(t, 'PUT', '/setting/update', { as: admin, body: { jetpack_holiday_snow_enabled: true } });
    await call(t, 'POST', '/reset/options', { as: admin });

    expect(heard).toEqual([
      ['module.activated', { slug: 'hello-world' }],
      ['module.option_updated', { slug: 'hello-world', option: 'hello_world_greeting', value: 'Hi' }],
      ['setting.updated', { name: 'jetpack_holiday_snow_enabled', value: true }],
      ['module.deactivated', { slug: 'hello-world' }],
      ['options.reset', { kind: 'options' }],
    ]);
    const mod = (await call(t, 'GET', '/module/hello-world', { as: admin })).json as {
      options: { hello_world_greeting: { current_value: string } };
    };
    expect(mod.options.hello_world_greeting.current_value).toBe('Hello');
  });
});
