import { describe, expect, it } from 'vitest';
import { isLoopbackHost, validateConnectionConfig } from './connection-config.js';

const redirectUri = 'https://site.example/connect/callback';

describe('validateConnectionConfig', () => {
  it('accepts https issuers and plain http only on loopback hosts', () => {
    expect(validateConnectionConfig({ issuer: 'https://accounts.example', redirectUri })).toMatchObject({
      ok: true,
      config: { insecure: false, timeoutMs: 5000 },
    });
    for (const issuer of ['http://127.0.0.1:4000', 'http://127.8.9.10', 'http://[::1]:4000', 'http://localhost:4000']) {
      expect(validateConnectionConfig({ issuer, redirectUri })).toMatchObject({ ok: true, config: { insecure: true } });
    }
    for (const issuer of [
      'http://accounts.example',
      'http://10.0.0.1',
      'http://128.0.0.1',
      'http://127.0.0.1.evil.example',
      'ftp://127.0.0.1',
    ]) {
      const result = validateConnectionConfig({ issuer, redirectUri });
      expect(result, issuer).toMatchObject({ ok: false, error: { kind: 'invalid_config' } });
    }
  });

  it('says clearly what is wrong', () => {
    expect(validateConnectionConfig({ issuer: 'http://accounts.example', redirectUri })).toMatchObject({
      error: {
        message: 'the issuer must use https (plain http is allowed only for 127.0.0.1, ::1 and localhost): http://accounts.example',
      },
    });
    expect(validateConnectionConfig({ issuer: 'nope', redirectUri })).toMatchObject({
      error: { message: 'the issuer "nope" is not an absolute URL' },
    });
    expect(validateConnectionConfig({ issuer: 'https://a.example', redirectUri: 'https://s.example/cb#x' })).toMatchObject({ ok: false });
    expect(validateConnectionConfig({ issuer: 'https://a.example', redirectUri, clientSecret: 's' })).toMatchObject({
      error: { message: 'a client secret needs a client id' },
    });
    expect(validateConnectionConfig({ issuer: 'https://a.example', redirectUri, timeoutMs: 0 })).toMatchObject({ ok: false });
  });

  it('knows the loopback hosts', () => {
    expect(['127.0.0.1', '127.255.0.3', '::1', '[::1]', 'localhost', 'LOCALHOST'].filter((host) => !isLoopbackHost(host))).toEqual([]);
    expect(['0.0.0.0', '::', '192.168.1.1', 'localhost.example', '::ffff:127.0.0.1'].some(isLoopbackHost)).toBe(false);
  });
});
