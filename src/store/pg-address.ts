import { parsePgTarget } from './pg-hosts.js';

/**
 * Where a PostgreSQL URL points, as `host:port` (never its user or password), for messages that
 * must say what was tried. libpq's defaults fill what the URL leaves out; a `host` query
 * parameter (a Unix socket directory) wins over the URL's host, as in libpq.
 */
export function pgAddress(url: string): string {
  // Several hosts (libpq's h1:5432,h2:5433): each, as they are tried.
  if (/^postgres(ql)?:\/\/(?:[^@/?#]*@)?[^/?#]*,/.test(url)) {
    try {
      return parsePgTarget(url)
        .hosts.map((h) => `${h.host}:${h.port}`)
        .join(', ');
    } catch {
      return 'an unparsable URL';
    }
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'an unparsable URL';
  }
  const host = parsed.searchParams.get('host') ?? (decodeURIComponent(parsed.hostname) || 'localhost');
  const port = parsed.searchParams.get('port') ?? (parsed.port || '5432');
  return `${host}:${port}`;
}
