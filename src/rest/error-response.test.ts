import { describe, expect, test } from 'vitest';
import { errorResponse } from './error-response.js';
import { errorCatalogue, restError, shuttingDown, storeUnavailable } from './errors.js';

describe('errorResponse', () => {
  test('gives the status, the JSON body and its length', () => {
    const response = errorResponse(restError('rest_no_route'));
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toEqual({
      code: 'rest_no_route',
      message: 'No route was found matching the URL and request method',
      data: { status: 404 },
    });
    expect(response.headers).toEqual({
      'Content-Type': 'application/json; charset=UTF-8',
      'Content-Length': String(Buffer.byteLength(response.body)),
    });
  });

  test('sends Retry-After when the error carries data.retry_after, rounded up and at least 1', () => {
    expect(errorResponse(storeUnavailable(5)).headers['Retry-After']).toBe('5');
    expect(errorResponse(restError('rest_forbidden', { data: { retry_after: 89.2 } })).headers['Retry-After']).toBe('90');
    expect(errorResponse(restError('rest_forbidden', { data: { retry_after: 0 } })).headers['Retry-After']).toBe('1');
    expect(errorResponse(shuttingDown()).headers['Retry-After']).toBe('1');
  });

  test("adds the caller's headers last", () => {
    const response = errorResponse(restError('rest_no_route'), { Connection: 'close', 'Content-Type': 'application/json; charset=UTF-8' });
    expect(response.headers.Connection).toBe('close');
    expect(Object.keys(response.headers).filter((name) => name.toLowerCase() === 'content-type')).toHaveLength(1);
  });
});

describe('errorCatalogue', () => {
  const errors = errorCatalogue(
    {
      fixed: { code: 'fixed_code', message: 'A fixed message.', status: 409 },
      templated: { code: 'templated', message: 'No backup {id} in {dir}.', status: 404 },
    },
    (text) => text.replace(/</g, '&lt;'),
  );

  test('builds the entry with its code, message and status, options adding data or another status', () => {
    expect(errors('fixed').toJSON()).toEqual({ code: 'fixed_code', message: 'A fixed message.', data: { status: 409 } });
    expect(errors('fixed', { status: 410, data: { hint: 'x' } }).toJSON()).toEqual({
      code: 'fixed_code',
      message: 'A fixed message.',
      data: { status: 410, hint: 'x' },
    });
  });

  test('fills the template with escaped parameters and leaves braces inside a value alone', () => {
    expect(errors('templated', { id: '<b>', dir: '{id}' }).message).toBe('No backup &lt;b> in {id}.');
  });
});
