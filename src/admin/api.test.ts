import { describe, expect, it } from 'vitest';
import { ApiError, toApiError } from './api';

describe('what a failed request becomes', () => {
  it('tells a network failure apart from an answer that is not JSON', () => {
    const network = toApiError({ code: 'fetch_error', message: 'You are probably offline.' });
    expect(network).toBeInstanceOf(ApiError);
    expect(network.kind).toBe('network');
    expect(network.message).toMatch(/could not be reached/);
    const proxy = toApiError({ code: 'invalid_json', message: 'The response is not a valid JSON response.' });
    expect(proxy.kind).toBe('not-json');
    expect(proxy.message).toMatch(/not the expected data/);
  });

  it('treats a nonce the refresh could not renew, or no login, as an expired login', () => {
    for (const code of ['rest_cookie_invalid_nonce', 'rest_not_logged_in']) {
      const error = toApiError({ code, message: 'Cookie check failed', data: { status: 403 } });
      expect(error.kind).toBe('login');
      expect(error.status).toBe(403);
      expect(error.message).toMatch(/login has expired/);
    }
  });

  it('keeps an API refusal’s code, message, status and per-argument messages', () => {
    const error = toApiError({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): count',
      data: { status: 400, params: { count: 'count must be an integer.', bad: 3 } },
    });
    expect(error).toMatchObject({ kind: 'api', code: 'rest_invalid_param', message: 'Invalid parameter(s): count', status: 400 });
    expect(error.params).toEqual({ count: 'count must be an integer.' });
  });

  it('names the code when the answer has no message, and survives what is not an error at all', () => {
    expect(toApiError({ code: 'weird', message: '' }).message).toBe('The request failed (weird).');
    for (const raw of [null, undefined, 'boom', 42, [], { data: null }]) {
      const error = toApiError(raw);
      expect(error).toMatchObject({
        kind: 'api',
        code: 'unknown',
        message: 'The request failed (unknown).',
        status: undefined,
        params: {},
      });
    }
  });
});
