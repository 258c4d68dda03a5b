import { describe, expect, test } from 'vitest';
import { invalidParams, restError } from './errors.js';

describe('the REST error catalogue', () => {
  test('message variants of a code are their own entries and send that code', () => {
    expect(restError('rest_bad_request').toJSON()).toEqual({
      code: 'rest_bad_request',
      message: 'The request could not be parsed.',
      data: { status: 400 },
    });
    expect(restError('rest_bad_request_url').toJSON()).toEqual({
      code: 'rest_bad_request',
      message: 'The request URL could not be parsed.',
      data: { status: 400 },
    });
    expect(restError('rest_bad_request', { status: 408 }).status).toBe(408);
    expect(restError('rest_headers_too_large').toJSON()).toEqual({
      code: 'rest_headers_too_large',
      message: 'The request headers are too large.',
      data: { status: 431 },
    });
    expect(restError('xmlrpc_not_supported').toJSON()).toEqual({
      code: 'xmlrpc_not_supported',
      message: 'XML-RPC is not supported; use the REST API.',
      data: { status: 404 },
    });
  });

  test('parameterised entries carry the detail as their message', () => {
    expect(restError('rest_bad_request_detail', { detail: 'Bad URL' }, { status: 400 }).toJSON()).toEqual({
      code: 'rest_bad_request',
      message: 'Bad URL',
      data: { status: 400 },
    });
    expect(restError('rest_encode_error', { detail: 'cycle' }).status).toBe(500);
  });

  test('rest_invalid_param has one factory for the request answer and a validator answer', () => {
    expect(invalidParams({ a: 'a is bad.', b: 'b is bad.' }).toJSON()).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): a, b',
      data: { status: 400, params: { a: 'a is bad.', b: 'b is bad.' } },
    });
    expect(invalidParams('a is bad.').toJSON()).toEqual({ code: 'rest_invalid_param', message: 'a is bad.', data: { status: 400 } });
  });
});
