import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import type { SitewardApi } from '../../plugins/api.js';

/** What the test plugin's abilities were run with. */
const runs: { name: string; input: unknown }[] = [];
let notes: string[] = ['first'];

/** A plugin registering abilities through the plugin API, one per method rule and per refusal. */
function notesPlugin(api: SitewardApi) {
  api.registerAbilityCategory('notes', { label: 'Notes', description: 'Notes kept by the test plugin.' });
  const canEdit = (_input: unknown, caller: { user: { can(c: string): boolean } }) => caller.user.can('manage_options');
  api.registerAbility('notes/list', {
    label: 'List notes',
    description: 'Lists the notes.',
    category: 'notes',
    input_schema: {
      type: 'object',
      properties: { limit: { type: 'integer', minimum: 1, maximum: 10 } },
      required: ['limit'],
      additionalProperties: false,
    },
    output_schema: { type: 'object', properties: { notes: { type: 'array', items: { type: 'string' } } }, required: ['notes'] },
    permission: canEdit,
    execute: (input: { limit: number }) => {
      runs.push({ name: 'notes/list', input });
      return { notes: notes.slice(0, input.limit) };
    },
    meta: {
      annotations: { readonly: true, destructive: false, idempotent: true, instructions: 'Read before writing.' },
      show_in_rest: true,
    },
  });
  api.registerAbility('notes/add', {
    label: 'Add a note',
    description: 'Adds a note.',
    category: 'notes',
    input_schema: { type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'] },
    output_schema: { type: 'integer' },
    permission: canEdit,
    execute: (input: { text: string }) => {
      runs.push({ name: 'notes/add', input });
      notes.push(input.text);
      return notes.length;
    },
    meta: { annotations: { readonly: false, destructive: false, idempotent: false }, show_in_rest: true },
  });
  api.registerAbility('notes/clear', {
    label: 'Clear notes',
    description: 'Removes every note.',
    category: 'notes',
    permission: canEdit,
    execute: () => {
      runs.push({ name: 'notes/clear', input: null });
      notes = [];
      return null;
    },
    meta: { annotations: { destructive: true, idempotent: true }, show_in_rest: true },
  });
  api.registerAbility('notes/hidden', {
    label: 'Hidden',
    description: 'Not shown in REST.',
    category: 'notes',
    permission: () => true,
    execute: () => 'hidden',
  });
  api.registerAbility('notes/broken', {
    label: 'Broken',
    description: 'Answers what its output schema forbids.',
    category: 'notes',
    output_schema: { type: 'string' },
    permission: () => true,
    execute: () => 42,
    meta: { annotations: { readonly: true }, show_in_rest: true },
  });
}

let app: TestApp;
let admin: Record<string, string>;
let author: Record<string, string>;
const RUN = '/wp-json/wp-abilities/v1/abilities';

beforeAll(async () => {
  app = await createTestApp({ plugins: [notesPlugin] });
  await app.app.users.create({ login: 'boss', email: 'boss@example.org', role: 'administrator', password: 'boss-password-1' });
  await app.app.users.create({ login: 'writer', email: 'writer@example.org', role: 'author', password: 'writer-password-1' });
  const basic = async (login: string) => {
    const created = await app.app.authenticator.appPasswords.create(login, 'agent');
    if (!created.ok) throw new Error(created.message);
    return { Authorization: `Basic ${Buffer.from(`${login}:${created.password}`).toString('base64')}` };
  };
  admin = await basic('boss');
  author = await basic('writer');
});
afterAll(() => app.close());

describe('wp-abilities/v1 lists', () => {
  it('only the abilities shown in REST, with WordPress’s fields, defaults and _links', async () => {
    const res = await app.request({ path: `${RUN}?category=notes`, headers: admin });
    expect(res.status).toBe(200);
    const list = res.json as { name: string }[];
    expect(list.map((a) => a.name)).toEqual(['notes/list', 'notes/add', 'notes/clear', 'notes/broken']);
    expect(res.headers['x-wp-total']).toBe('4');
    expect(res.headers['x-wp-totalpages']).toBe('1');
  });

  it('one ability byte for byte as WordPress encodes it: empty schemas as [], null annotations, show_in_rest', async () => {
    const res = await app.request({ path: `${RUN}/notes/clear`, headers: admin });
    expect(res.status).toBe(200);
    const root = 'http://example.org/wp-json/wp-abilities/v1';
    expect(res.text).toBe(
      JSON.stringify({
        name: 'notes/clear',
        label: 'Clear notes',
        description: 'Removes every note.',
        category: 'notes',
        input_schema: [],
        output_schema: [],
        meta: { annotations: { readonly: null, destructive: true, idempotent: true }, show_in_rest: true },
        _links: {
          self: [{ href: `${root}/abilities/notes/clear` }],
          collection: [{ href: `${root}/abilities` }],
          'wp:action-run': [{ href: `${root}/abilities/notes/clear/run` }],
        },
      }),
    );
  });

  it('pages with page and per_page (default 50, at most 100), with prev and next links', async () => {
    const second = await app.request({ path: `${RUN}?category=notes&per_page=2&page=2`, headers: admin });
    expect((second.json as { name: string }[]).map((a) => a.name)).toEqual(['notes/clear', 'notes/broken']);
    expect(second.headers['x-wp-totalpages']).toBe('2');
    expect(second.headers.link).toBe('<http://example.org/wp-json/wp-abilities/v1/abilities?category=notes&per_page=2&page=1>; rel="prev"');
    const tooMany = await app.request({ path: `${RUN}?per_page=101`, headers: admin });
    expect(tooMany.status).toBe(400);
    expect((tooMany.json as { code: string }).code).toBe('rest_invalid_param');
  });

  it('the categories, one with its abilities link, and an unknown one as rest_ability_category_not_found', async () => {
    const all = await app.request({ path: '/wp-json/wp-abilities/v1/categories', headers: admin });
    const slugs = (all.json as { slug: string }[]).map((c) => c.slug);
    // In registration order: WordPress's, the built-in features', then the plugin's.
    expect(slugs.slice(0, 2)).toEqual(['site', 'user']);
    expect(slugs.at(-1)).toBe('notes');
    const one = await app.request({ path: '/wp-json/wp-abilities/v1/categories/notes', headers: admin });
    expect(one.json).toMatchObject({
      slug: 'notes',
      label: 'Notes',
      description: 'Notes kept by the test plugin.',
      meta: [],
      _links: { abilities: [{ href: 'http://example.org/wp-json/wp-abilities/v1/abilities?category=notes' }] },
    });
    const missing = await app.request({ path: '/wp-json/wp-abilities/v1/categories/nope', headers: admin });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({
      code: 'rest_ability_category_not_found',
      message: 'Ability category not found.',
      data: { status: 404 },
    });
  });

  it('to nobody who is not logged in', async () => {
    const res = await app.request({ path: RUN });
    expect(res.status).toBe(401);
  });
});

describe('wp-abilities/v1 runs an ability', () => {
  it('readonly: by GET, the input in ?input[…]= (PHP’s query syntax) or as URL-encoded JSON; the answer is the raw result', async () => {
    runs.length = 0;
    notes = ['a', 'b', 'c'];
    const php = await app.request({ path: `${RUN}/notes/list/run?input[limit]=2`, headers: admin });
    expect(php.status).toBe(200);
    expect(php.text).toBe('{"notes":["a","b"]}');
    const json = await app.request({ path: `${RUN}/notes/list/run?input=${encodeURIComponent('{"limit":1}')}`, headers: admin });
    expect(json.json).toEqual({ notes: ['a'] });
    // The callback gets the schema's types, whichever way the input came.
    expect(runs).toEqual([
      { name: 'notes/list', input: { limit: 2 } },
      { name: 'notes/list', input: { limit: 1 } },
    ]);
  });

  it('neither readonly nor destructive-and-idempotent: by POST with {"input": …}', async () => {
    notes = [];
    const res = await app.request({ method: 'POST', path: `${RUN}/notes/add/run`, headers: admin, body: { input: { text: 'hello' } } });
    expect(res.status).toBe(200);
    expect(res.text).toBe('1');
    expect(notes).toEqual(['hello']);
  });

  it('destructive and idempotent: by DELETE', async () => {
    notes = ['x'];
    const res = await app.request({ method: 'DELETE', path: `${RUN}/notes/clear/run`, headers: admin });
    expect(res.status).toBe(200);
    expect(res.text).toBe('null');
    expect(notes).toEqual([]);
  });

  it('refuses another method with rest_ability_invalid_method (405) and runs nothing', async () => {
    runs.length = 0;
    const cases: [string, string, string][] = [
      ['POST', 'notes/list', 'Read-only abilities require GET method.'],
      ['GET', 'notes/add', 'Abilities that perform updates require POST method.'],
      ['POST', 'notes/clear', 'Abilities that perform destructive actions require DELETE method.'],
    ];
    for (const [method, name, message] of cases) {
      const res = await app.request({
        method,
        path: `${RUN}/${name}/run`,
        headers: admin,
        body: method === 'POST' ? { input: null } : undefined,
      });
      expect(res.status).toBe(405);
      expect(res.json).toEqual({ code: 'rest_ability_invalid_method', message, data: { status: 405 } });
    }
    expect(runs).toEqual([]);
  });

  it('checks the input against input_schema: ability_invalid_input (400) with the validator’s reason', async () => {
    const cases: [string, string][] = [
      [`?input[limit]=11`, 'input[limit] must be between 1 (inclusive) and 10 (inclusive)'],
      [`?input[limit]=two`, 'input[limit] is not of type integer.'],
      [`?input[other]=1`, 'limit is a required property of input.'],
      [`?input[limit]=1&input[other]=1`, 'other is not a valid property of Object.'],
      [``, 'input is not of type object.'],
    ];
    for (const [query, reason] of cases) {
      const res = await app.request({ path: `${RUN}/notes/list/run${query}`, headers: admin });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        code: 'ability_invalid_input',
        message: `Ability "notes/list" has invalid input. Reason: ${reason}`,
        data: { status: 400 },
      });
    }
    const empty = await app.request({ method: 'POST', path: `${RUN}/notes/add/run`, headers: admin, body: { input: { text: '' } } });
    expect((empty.json as { message: string }).message).toBe(
      'Ability "notes/add" has invalid input. Reason: input[text] must be at least 1 character long.',
    );
  });

  it('refuses a user the ability’s permission refuses: 403 logged in, 401 anonymous (rest_ability_cannot_execute)', async () => {
    const denied = await app.request({ method: 'DELETE', path: `${RUN}/notes/clear/run`, headers: author });
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual({
      code: 'rest_ability_cannot_execute',
      message: 'Sorry, you are not allowed to execute this ability.',
      data: { status: 403 },
    });
    const anonymous = await app.request({ method: 'DELETE', path: `${RUN}/notes/clear/run` });
    expect(anonymous.status).toBe(401);
  });

  it('answers rest_ability_not_found (404) for an unknown ability and for one not shown in REST', async () => {
    for (const name of ['notes/missing', 'notes/hidden']) {
      for (const path of [`${RUN}/${name}`, `${RUN}/${name}/run`]) {
        const res = await app.request({ path, headers: admin });
        expect(res.status).toBe(404);
        expect(res.json).toEqual({ code: 'rest_ability_not_found', message: 'Ability not found.', data: { status: 404 } });
      }
    }
  });

  it('answers ability_invalid_output (500) when the result does not match output_schema', async () => {
    const res = await app.request({ path: `${RUN}/notes/broken/run`, headers: admin });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({
      code: 'ability_invalid_output',
      message: 'Ability "notes/broken" has invalid output. Reason: output is not of type string.',
      data: { status: 500 },
    });
  });
});
