import type { IncomingMessage } from 'node:http';

/**
 * Turns an absolute-form request target (`GET http://host/wp-json/… HTTP/1.1`, which HTTP/1.1
 * servers must accept, RFC 9112 §3.2.2) into origin form, so it is routed like `/wp-json/…`.
 * The target's authority then replaces the Host header, as the RFC requires. Returns false
 * when the target is absolute but not an http(s) URL that parses (the caller answers 400).
 */
export function toOriginForm(req: IncomingMessage): boolean {
  const url = req.url ?? '/';
  if (url.startsWith('/') || url === '*') return true;
  if (!/^https?:\/\//i.test(url)) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  req.url = parsed.pathname + parsed.search;
  req.headers.host = parsed.host;
  return true;
}
