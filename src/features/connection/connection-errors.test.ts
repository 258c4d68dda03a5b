import { describe, expect, it } from 'vitest';
import { toConnectionError } from './connection-errors.js';

function opError(code: string, cause: Record<string, unknown>): Error {
  return Object.assign(new Error('library error', { cause }), { code });
}

describe('toConnectionError', () => {
  const issuer = 'https://accounts.example';

  it('maps ID token claim failures to their kinds', () => {
    expect(toConnectionError(opError('OAUTH_JWT_CLAIM_COMPARISON_FAILED', { claim: 'aud' }), 'token', issuer).kind).toBe(
      'audience_mismatch',
    );
    expect(toConnectionError(opError('OAUTH_JWT_CLAIM_COMPARISON_FAILED', { claim: 'iss' }), 'token', issuer).kind).toBe('issuer_mismatch');
    expect(toConnectionError(opError('OAUTH_JWT_CLAIM_COMPARISON_FAILED', { claim: 'nonce' }), 'token', issuer).kind).toBe(
      'id_token_invalid',
    );
    expect(toConnectionError(new Error('JWT signature verification failed'), 'token', issuer).kind).toBe('id_token_invalid');
  });

  it('maps network failures to down and timeout', () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    expect(toConnectionError(refused, 'discovery', issuer).kind).toBe('provider_down');
    expect(toConnectionError(new DOMException('timed out', 'TimeoutError'), 'discovery', issuer).kind).toBe('provider_timeout');
  });
});
