/**
 * Where a PostgreSQL URL points, as `host:port` (never its user or password), for messages that
 * must say what was tried. libpq's defaults fill what the URL leaves out; a `host` query
 * parameter (a Unix socket directory) wins over the URL's host, as in libpq.
 */
export function pgAddress(url: string): string {
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
