/**
 * Only same-origin redirect targets. The decision is made on what a browser will do with the
 * Location header: the WHATWG parser drops tabs and newlines and treats `\\` like `/`, so
 * `/\t/evil.com` or `/.//evil.com` would leave the site if checked as strings. The answer is
 * re-serialized from the parsed URL and parsed once more, so what is sent is what was checked.
 */
export function safeRedirect(target: string, homeUrl: string): string | null {
  if (target === '') return null;
  const base = new URL(homeUrl);
  const sameOrigin = (value: string): URL | null => {
    try {
      const url = new URL(value, base);
      return url.origin === base.origin ? url : null;
    } catch {
      return null;
    }
  };
  const parsed = sameOrigin(target);
  if (!parsed) return null;
  const path = parsed.pathname + parsed.search + parsed.hash;
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null;
  return sameOrigin(path) ? path : null;
}
