import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';

describe('the redirect after a form login', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
    await app.app.users.create({ login: 'ann', email: 'ann@example.org', role: 'editor', password: 'ann-password-1' });
  });
  afterAll(() => app.close());

  // The raw body keeps the attacker's percent-encoding exactly as a browser would send it.
  const loginWith = (encodedRedirect: string) =>
    app.request({
      method: 'POST',
      path: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://example.org' },
      body: `log=ann&pwd=ann-password-1&redirect_to=${encodedRedirect}`,
    });

  /** Where a browser goes with the Location header, resolved on the site's own page. */
  const resolvedHost = (location: string) => new URL(location, 'http://example.org/login').host;

  it.each([
    ['a tab between the slashes', '%2F%09%2Fevil.com'],
    ['a newline between the slashes', '%2F%0A%2Fevil.com'],
    ['a backslash after the slash', '%2F%5Cevil.com'],
    ['a dot segment before a double slash', '%2F.%2F%2Fevil.com'],
    ['a protocol-relative URL', '%2F%2Fevil.com'],
    ['an absolute URL of another host', 'https%3A%2F%2Fevil.com%2F'],
    ['a javascript: URL', 'javascript%3Aalert(1)'],
  ])('sends a target with %s to /admin/ instead of another host', async (_name, encoded) => {
    const res = await loginWith(encoded);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/admin/');
    expect(resolvedHost(res.headers.location!)).toBe('example.org');
  });

  it('keeps a same-origin path with its query and fragment', async () => {
    const res = await loginWith('%2Fadmin%2F%3Fpage%3Dmodules%23top');
    expect(res.headers.location).toBe('/admin/?page=modules#top');
  });

  it('turns an absolute URL of the site itself into its path', async () => {
    const res = await loginWith('http%3A%2F%2Fexample.org%2Fadmin%2F');
    expect(res.headers.location).toBe('/admin/');
  });
});
