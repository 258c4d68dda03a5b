import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { deprecatedFunction as plainDeprecatedFunction } from '../rest/deprecation.js';
import { FieldRegistry } from '../rest/field-registry.js';
import type { RestServer } from '../rest/rest-server.js';
import { createBareRestServer, get, header } from '../rest/testing/bare-rest-server.js';
import type { SitewardApi } from './api.js';
import { trackedInFlight, withRequestContext } from './request-context.js';

/** The plain API a built-in feature gets, over a bare REST server. */
function plainApi(rest: RestServer, fields: FieldRegistry): SitewardApi {
  const unused = () => {
    throw new Error('not in this test');
  };
  return {
    registerRoute: (ns, route, def, override) => rest.registerRoute(ns, route, def, override),
    registerField: (type, attribute, def) => fields.register(type, attribute, def),
    deprecatedFunction: plainDeprecatedFunction,
    deprecatedArgument: () => undefined,
    restUrl: unused,
    on: unused,
    options: {} as SitewardApi['options'],
    site: { homeUrl: 'http://example.org', restPrefix: 'wp-json', permalinks: 'pretty' },
    log: { info() {}, warn() {}, error() {}, debug() {} },
    registerModule: unused,
    addJob: unused,
    registerAbility: unused,
    registerAbilityCategory: unused,
    audit: unused,
  };
}

const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await sleep(Math.floor(Math.random() * 3));
};

describe('api.deprecatedFunction/Argument after await (third-party plugins)', () => {
  const rest = createBareRestServer();
  const fields = new FieldRegistry();
  const builtIn = plainApi(rest, fields);
  const plugin = withRequestContext(builtIn);

  /** A validator that reports after two awaits. */
  const lateValidator = async (value: unknown) => {
    await ticks(2);
    plugin.deprecatedArgument(`validate_${String(value)}`, '1.0');
    return true;
  };

  plugin.registerRoute('plug/v1', '/late/(?P<n>\\d+)', {
    args: { n: { validateCallback: lateValidator } },
    permissionCallback: async (request) => {
      await ticks(2);
      plugin.deprecatedArgument(`permission_${String(request.params.n)}`, '1.0');
      return true;
    },
    callback: async (request) => {
      await ticks(1);
      await ticks(1);
      plugin.deprecatedFunction(`late_${String(request.params.n)}`, '2.0', 'new_fn');
      return { n: request.params.n };
    },
  });
  plugin.registerField('thing', 'extra', {
    get: async (object) => {
      await ticks(2);
      plugin.deprecatedFunction(`field_${String(object.id)}`, '3.0');
      return 'x';
    },
  });
  builtIn.registerRoute('core/v1', '/thing/(?P<id>\\d+)', {
    callback: async (request) => {
      await ticks(1);
      return fields.addToResponse('thing', { id: request.params.id }, request);
    },
  });
  builtIn.registerRoute('core/v1', '/quiet', {
    callback: async () => {
      await ticks(2);
      return 'ok';
    },
  });

  test('notices raised after two awaits reach their own request, under concurrent requests', async () => {
    const ns = Array.from({ length: 30 }, (_, i) => i + 1);
    const outs = await Promise.all(ns.flatMap((n) => [get(rest, `/plug/v1/late/${n}`), get(rest, '/core/v1/quiet')]));
    for (const [i, n] of ns.entries()) {
      const late = outs[2 * i]!;
      const quiet = outs[2 * i + 1]!;
      expect(late.status).toBe(200);
      expect(header(late, 'X-WP-DeprecatedFunction')).toBe(`late_${n} (since 2.0; use new_fn instead)`);
      // The permission check ran after the validator: its notice is the last argument notice.
      expect(header(late, 'X-WP-DeprecatedParam')).toBe(`permission_${n} (since 1.0; no alternative available)`);
      expect(header(quiet, 'X-WP-DeprecatedFunction')).toBeUndefined();
      expect(header(quiet, 'X-WP-DeprecatedParam')).toBeUndefined();
    }
    expect(trackedInFlight()).toBe(0);
  });

  test('a validator reports after await too', async () => {
    const ns = [101, 102, 103];
    const outs = await Promise.all(
      ns.map(async (n) => {
        const validateOnly = createBareRestServer();
        withRequestContext(plainApi(validateOnly, fields)).registerRoute('plug/v1', '/v/(?P<n>\\d+)', {
          args: { n: { validateCallback: lateValidator } },
          callback: () => null,
        });
        return get(validateOnly, `/plug/v1/v/${n}`);
      }),
    );
    for (const [i, n] of ns.entries())
      expect(header(outs[i]!, 'X-WP-DeprecatedParam')).toBe(`validate_${n} (since 1.0; no alternative available)`);
  });

  test('a plugin field getter reports after await inside a built-in route', async () => {
    const outs = await Promise.all([get(rest, '/core/v1/thing/7'), get(rest, '/core/v1/thing/8'), get(rest, '/core/v1/quiet')]);
    expect(header(outs[0]!, 'X-WP-DeprecatedFunction')).toBe('field_7 (since 3.0; no alternative available)');
    expect(header(outs[1]!, 'X-WP-DeprecatedFunction')).toBe('field_8 (since 3.0; no alternative available)');
    expect(header(outs[2]!, 'X-WP-DeprecatedFunction')).toBeUndefined();
    expect(trackedInFlight()).toBe(0);
  });

  test('outside any request the calls do nothing', async () => {
    expect(() => plugin.deprecatedFunction('nowhere', '1.0')).not.toThrow();
    await sleep(1);
    expect(() => plugin.deprecatedArgument('nowhere', '1.0')).not.toThrow();
  });

  test('a throwing or rejecting tracked callback still settles the count', async () => {
    const r = createBareRestServer();
    const api = withRequestContext(plainApi(r, new FieldRegistry()));
    api.registerRoute('plug/v1', '/sync-throw', {
      callback: () => {
        throw new Error('boom');
      },
    });
    api.registerRoute('plug/v1', '/async-throw', {
      callback: async () => {
        await sleep(1);
        throw new Error('boom');
      },
    });
    expect((await get(r, '/plug/v1/sync-throw')).status).toBe(500);
    expect((await get(r, '/plug/v1/async-throw')).status).toBe(500);
    expect(trackedInFlight()).toBe(0);
  });

  test('route-level options and non-function callbacks pass through unchanged', async () => {
    const r = createBareRestServer();
    const api = withRequestContext(plainApi(r, new FieldRegistry()));
    const list = Object.assign([{ methods: 'GET', callback: () => 'listed' }], { schema: () => ({ title: 'thing' }) });
    api.registerRoute('plug/v1', '/listed', list);
    api.registerRoute('plug/v1', '/broken', { callback: 'nope' as never });
    expect(JSON.parse(String((await get(r, '/plug/v1/listed')).body))).toBe('listed');
    expect(JSON.parse(String((await get(r, '/plug/v1/listed', 'OPTIONS')).body))).toMatchObject({ schema: { title: 'thing' } });
    expect(JSON.parse(String((await get(r, '/plug/v1/broken')).body))).toMatchObject({ code: 'rest_invalid_handler' });
  });
});
