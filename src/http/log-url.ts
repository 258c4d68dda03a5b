/** Query parameters whose values never go into a log line: login codes, states, nonces, tokens, passwords. */
const SECRET_PARAMS = new Set(['code', 'state', 'session_state', '_wpnonce', 'token', 'access_token', 'refresh_token', 'id_token', 'password', 'pwd', 'setup_token']);

/**
 * The request URL for the log: the values of secret query parameters are replaced by `[redacted]`
 * (e.g. `/connect/callback?code=…&state=…` carries a one-time authorization code).
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const parts = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq === -1) return pair;
    let name: string;
    try {
      name = decodeURIComponent(pair.slice(0, eq).replace(/\+/g, ' ')).toLowerCase();
    } catch {
      return `${pair.slice(0, eq)}=[redacted]`;
    }
    return SECRET_PARAMS.has(name) ? `${pair.slice(0, eq)}=[redacted]` : pair;
  });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}
