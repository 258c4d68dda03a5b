import { Validator } from '@seriousme/openapi-schema-validator';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.js';
import type { SitewardApi } from '../plugins/api.js';

let t: TestApp | undefined;
afterEach(async () => t?.close());

type Doc = { paths: Record<string, Record<string, { parameters?: unknown[]; responses?: Record<string, unknown>; 'x-owner'?: string }>> };

function plugin(api: SitewardApi): void {
  api.registerRoute('shop/v2', '/orders/(?P<order>\\d+)/notes', [
    {
      methods: 'POST',
      args: { text: { type: 'string', required: true, description: 'The note.' }, private: { type: 'boolean', default: false } },
      permissionCallback: () => true,
      callback: () => ({ ok: true }),
    },
  ]);
}

describe('GET /wp-json/?_openapi=3.1', () => {
  it("answers the OpenAPI 3.1 document of the registered routes, a plugin's route with its body, and it validates", async () => {
    t = await createTestApp({ plugins: [plugin] });
    const res = await t.request({ path: '/wp-json/?_openapi=3.1' });
    expect(res.status).toBe(200);
    expect((await new Validator().validate(res.json as Record<string, unknown>)).valid).toBe(true);
    const doc = res.json as Doc;
    const notes = doc.paths['/shop/v2/orders/{order}/notes']!;
    expect(notes.parameters).toEqual([{ name: 'order', in: 'path', required: true, schema: { type: 'string', pattern: '^(?:\\d+)$' } }]);
    expect(notes.post).toMatchObject({
      'x-owner': expect.stringMatching(/^plugin:/),
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['text'],
              properties: { text: { type: 'string', description: 'The note.' }, private: { type: 'boolean', default: false } },
            },
          },
        },
      },
    });
    // Declared response schemas are used; the users item schema is shared by reference.
    const me = doc.paths['/wp/v2/users/me']!;
    expect(me.get!.responses!['200']).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/user' } } } });
    expect(doc.paths['/wp/v2/users']!.post!.responses!['201']).toBeDefined();
  });

  it('refuses another OpenAPI version with a 400 that says which one there is, and leaves the index unchanged', async () => {
    t = await createTestApp();
    const res = await t.request({ path: '/wp-json/?_openapi=3.0' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'rest_openapi_version', message: expect.stringContaining('3.1') });
    const index = await t.request({ path: '/wp-json/' });
    expect(Object.keys(index.json as object)).toEqual([
      'name',
      'description',
      'url',
      'home',
      'namespaces',
      'authentication',
      'routes',
      '_links',
    ]);
  });
});
