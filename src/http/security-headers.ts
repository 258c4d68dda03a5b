/**
 * The security headers of every HTML page (`/`, `/login`, `/setup`, features' pages): no
 * framing, no MIME sniffing, no referrer leaving the site, and a Content-Security-Policy that
 * runs scripts from this origin only, never an inline one. Built once: a policy computed from
 * the rendered page (hashing its inline scripts) would also allow a script that reached the
 * page through an escaping mistake. A page that needs an inline script sends its own policy
 * with a per-response nonce (the admin page does), which this one never replaces.
 */
const HTML_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': [
    "default-src 'self'",
    "script-src 'self'",
    // The pages' stylesheet is a file (core/page-style.ts): no inline style either.
    "style-src 'self'",
    "img-src 'self' data: https:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
});

const SECURITY_HEADER_ENTRIES = Object.entries(HTML_SECURITY_HEADERS);

/** The headers of an answer being built, as Fastify's reply has them. */
export interface HeaderSink {
  getHeader(name: string): unknown;
  hasHeader(name: string): boolean;
  header(name: string, value: string): unknown;
}

/** Adds the security headers an HTML answer lacks; a page that set its own (the admin page's per-response CSP) keeps them. */
export function addHtmlSecurityHeaders(reply: HeaderSink): void {
  if (!isHtmlType(reply.getHeader('content-type'))) return;
  for (const [name, value] of SECURITY_HEADER_ENTRIES) if (!reply.hasHeader(name)) reply.header(name, value);
}

/** True for a Content-Type of an HTML document. */
export function isHtmlType(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^\s*text\/html\b/i.test(contentType);
}
