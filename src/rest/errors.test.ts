import { describe, expect, test } from 'vitest';
import { errorCatalogue, invalidParams, restError } from './errors.js';

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

describe('errorCatalogue templates', () => {
  const catalogue = errorCatalogue(
    {
      two: { code: 'two', message: 'From {from} to {to}, then {from} again.', status: 409 },
      edge: { code: 'edge', message: '{only}', status: 400 },
      plain: { code: 'plain', message: 'Nothing to fill.', status: 404 },
    },
    (text) => text.replace(/</g, '&lt;'),
  );

  test('fills every placeholder, repeated ones too, with escaped values, and keeps the options after the parameters', () => {
    const error = catalogue('two', { from: '<a>', to: 3 }, { data: { hint: 'x' }, status: 410 });
    expect(error.message).toBe('From &lt;a> to 3, then &lt;a> again.');
    expect(error.data).toEqual({ status: 410, hint: 'x' });
    expect(catalogue('edge', { only: 'whole' }).message).toBe('whole');
  });

  test('takes the options first when the message has no placeholder', () => {
    const error = catalogue('plain', { status: 410 });
    expect(error.message).toBe('Nothing to fill.');
    expect(error.status).toBe(410);
  });
});
