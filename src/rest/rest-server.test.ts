/**
 * The REST server driven directly (no HTTP), for contracts of dispatch: thrown errors and
 * deprecation notices after `await` in third-party callbacks.
 */
import { describe, expect, test } from 'vitest';
import { RestError } from './errors.js';
import type { RestOutput } from './rest-server.js';
import { createBareRestServer, get } from './testing/bare-rest-server.js';

const json = (out: RestOutput): unknown => JSON.parse(String(out.body));

describe('a thrown RestError', () => {
  const rest = createBareRestServer();
  rest.registerRoute('t/v1', '/throws', {
    callback: () => {
      throw new RestError('thing_not_found', 'No such thing.', { status: 404 });
    },
  });
  rest.registerRoute('t/v1', '/throws-later', {
    callback: async () => {
      // After an await: the error rejects the promise the callback returned.
      await Promise.resolve();
      throw new RestError('thing_gone', 'Gone.', { status: 410, id: 7 });
    },
  });
  rest.registerRoute('t/v1', '/denied', {
    permissionCallback: () => {
      throw new RestError('no_entry', 'Not for you.', { status: 403 });
    },
    callback: () => 'unreachable',
  });
  rest.registerRoute('t/v1', '/denied-later', {
    permissionCallback: async () => {
      // After an await: the error rejects the promise the callback returned.
      await Promise.resolve();
      throw new RestError('no_entry_yet', 'Not yet.', { status: 401 });
    },
    callback: () => 'unreachable',
  });
  rest.registerRoute('t/v1', '/crash', {
    callback: () => {
      throw new Error('boom');
    },
  });

  test('from a callback answers with its status and code, not 500 rest_internal_error', async () => {
    const out = await get(rest, '/t/v1/throws');
    expect(out.status).toBe(404);
    expect(json(out)).toEqual({ code: 'thing_not_found', message: 'No such thing.', data: { status: 404 } });
    const later = await get(rest, '/t/v1/throws-later');
    expect(later.status).toBe(410);
    expect(json(later)).toEqual({ code: 'thing_gone', message: 'Gone.', data: { status: 410, id: 7 } });
  });

  test('from a permission callback answers with its status and code', async () => {
    const out = await get(rest, '/t/v1/denied');
    expect(out.status).toBe(403);
    expect(json(out)).toEqual({ code: 'no_entry', message: 'Not for you.', data: { status: 403 } });
    const later = await get(rest, '/t/v1/denied-later');
    expect(later.status).toBe(401);
    expect(json(later)).toMatchObject({ code: 'no_entry_yet' });
  });

  test('any other throw is still 500 rest_internal_error', async () => {
    const out = await get(rest, '/t/v1/crash');
    expect(out.status).toBe(500);
    expect(json(out)).toMatchObject({ code: 'rest_internal_error' });
  });
});
