/**
 * Test-only: a minimal browser over fetch(redirect: 'manual') with a cookie jar keyed by host and
 * name (path is ignored, which is enough for sequential logins: docs/spec/oidc-notes.md pitfall 4).
 */
export class TestBrowser {
  readonly #jar = new Map<string, Map<string, string>>();

  async get(url: string): Promise<Response> {
    return this.#send(url, { method: 'GET' });
  }

  async post(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.#send(url, {
      method: 'POST',
      body: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  }

  /** Follows GET redirects until a page (non-3xx) or a Location that starts with `stopAt`. */
  async follow(response: Response, from: string, stopAt: string): Promise<{ response: Response; url: string }> {
    let current = response;
    let url = from;
    for (let hops = 0; hops < 20; hops += 1) {
      const location = current.headers.get('location');
      if (current.status < 300 || current.status >= 400 || location === null) return { response: current, url };
      url = new URL(location, url).href;
      if (url.startsWith(stopAt)) return { response: current, url };
      await current.body?.cancel();
      current = await this.get(url);
    }
    throw new Error('too many redirects');
  }

  cookieNames(host: string): string[] {
    return [...(this.#jar.get(host)?.keys() ?? [])];
  }

  async #send(url: string, init: RequestInit): Promise<Response> {
    const { host } = new URL(url);
    const cookies = [...(this.#jar.get(host)?.entries() ?? [])].map(([k, v]) => `${k}=${v}`).join('; ');
    const headers = new Headers(init.headers);
    if (cookies !== '') headers.set('cookie', cookies);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) this.#store(host, line);
    return response;
  }

  #store(host: string, line: string): void {
    const [pair = '', ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attributes.some((a) => /^\s*expires=.*1970/i.test(a) || /^\s*max-age=0\s*$/i.test(a));
    const jar = this.#jar.get(host) ?? new Map<string, string>();
    if (expired || value === '') jar.delete(name);
    else jar.set(name, value);
    this.#jar.set(host, jar);
  }
}

/** The action and CSRF token of the first form on a page. */
export function formOf(html: string, actionEndsWith: string): { action: string; csrf: string } {
  const forms = [...html.matchAll(/<form method="post" action="([^"]+)"[^>]*>\s*<input type="hidden" name="csrf" value="([^"]+)">/g)];
  const form = forms.find((m) => (m[1] ?? '').endsWith(actionEndsWith));
  if (form === undefined) throw new Error(`no form ending in ${actionEndsWith} in:\n${html}`);
  return { action: form[1] ?? '', csrf: form[2] ?? '' };
}

/**
 * Logs in and consents from an authorization URL; returns the callback URL the provider
 * redirected to (it starts with `redirectUri`).
 */
export async function loginAndConsent(
  browser: TestBrowser,
  authorizationUrl: string,
  credentials: { login: string; password: string },
  redirectUri: string,
): Promise<string> {
  let step = await browser.follow(await browser.get(authorizationUrl), authorizationUrl, redirectUri);
  for (let pages = 0; pages < 4; pages += 1) {
    if (step.url.startsWith(redirectUri)) return step.url;
    const html = await step.response.text();
    if (step.response.status !== 200) throw new Error(`unexpected ${step.response.status} at ${step.url}: ${html}`);
    const isLogin = html.includes('/login"');
    const form = formOf(html, isLogin ? '/login' : '/confirm');
    const target = new URL(form.action, step.url).href;
    const fields: Record<string, string> = isLogin
      ? { csrf: form.csrf, login: credentials.login, password: credentials.password }
      : { csrf: form.csrf };
    step = await browser.follow(await browser.post(target, fields), target, redirectUri);
  }
  throw new Error('login did not reach the callback');
}
