/**
 * Query parameters whose values never reach the request log: the setup token, nonces, and
 * anything named like a credential (a plugin's `api_key`, an OAuth `access_token` or `code`).
 */
const SECRET_NAME = /token|nonce|secret|passw|^pwd$|^pass$|key$|signature|^sig$|^code$|^state$|^session_state$|^auth|credential|session/i;

/** The URL as logged: values of secret-named query parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const hash = url.indexOf('#', q);
  const query = hash === -1 ? url.slice(q + 1) : url.slice(q + 1, hash);
  let changed = false;
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    const rawName = eq === -1 ? part : part.slice(0, eq);
    let name: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      name = rawName;
    }
    // `a[token]` and `token[]` are the same secret under PHP-style names.
    if (eq === -1 || !name.split(/[[\]]/).some((segment) => segment !== '' && SECRET_NAME.test(segment))) return part;
    changed = true;
    return `${rawName}=[redacted]`;
  });
  return changed ? `${url.slice(0, q)}?${parts.join('&')}${hash === -1 ? '' : url.slice(hash)}` : url;
}
