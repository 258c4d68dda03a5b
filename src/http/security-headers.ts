import { createHash } from 'node:crypto';

/**
 * The security headers of every HTML page (`/`, `/login`, `/setup`, `/admin/`, features'
 * pages): no framing, no MIME sniffing, no referrer leaving the site, and a Content-Security-
 * Policy that runs only the page's own inline scripts, each allowed by the hash of its text.
 * Hashes rather than nonces: the pages need no change to carry them, and a script injected
 * into a page (an escaping slip) has a different hash and does not run.
 */
export function htmlSecurityHeaders(body: string | null): Record<string, string> {
  const hashes = body === null ? [] : inlineScriptHashes(body);
  const scriptSrc = ["'self'", ...hashes.map((h) => `'sha256-${h}'`)].join(' ');
  const csp = [
    "default-src 'self'",
    `script-src ${scriptSrc}`,
    // The pages' own <style> elements; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
  };
}

const INLINE_SCRIPT = /<script(\s[^>]*)?>([\s\S]*?)<\/script\s*>/gi;

/** base64 SHA-256 of the text of each `<script>` element without `src`. */
function inlineScriptHashes(html: string): string[] {
  const out = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    if (match[1] !== undefined && /\ssrc\s*=/i.test(match[1])) continue;
    out.add(createHash('sha256').update(match[2] ?? '', 'utf8').digest('base64'));
  }
  return [...out];
}

/** True for a Content-Type of an HTML document. */
export function isHtmlType(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^\s*text\/html\b/i.test(contentType);
}
