/** The value of one cookie from a `Cookie` request header (URL-decoded), or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  // Walks the header in place (no split into an array): this runs on every request.
  let start = 0;
  while (start < header.length) {
    let end = header.indexOf(';', start);
    if (end === -1) end = header.length;
    const eq = header.indexOf('=', start);
    if (eq !== -1 && eq < end && header.slice(start, eq).trim() === name) {
      const raw = header.slice(eq + 1, end).trim();
      if (!raw.includes('%')) return raw;
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
    start = end + 1;
  }
  return undefined;
}
