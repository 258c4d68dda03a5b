/**
 * The stylesheet of the server's own pages (/login, /setup, the password-reset pages, the 429
 * page, the home page, the 404 page, the connection result pages, the account service's login
 * and consent pages): the shared design tokens (theme.ts) plus a card layout, form rows,
 * buttons, notices and secondary links, light and dark, from 320 px. Served as a file (the pages'
 * CSP allows no inline style) under a URL carrying a hash of its content, so it is cached for a
 * year and a new release is fetched at once.
 *
 * Classes, not ids, so every page (and feature) can use them: `sw-card` (the main box),
 * `error` / `notice` / `success` (messages), `sw-button` and `sw-button-secondary` (buttons and
 * links looking like one), `link` (a button looking like a link), `sw-secondary` (the small
 * links under a form), `sw-alternatives` (other ways to log in), `sw-divider` ("or").
 */
import { createHash } from 'node:crypto';
import { DESIGN_TOKENS_CSS } from './theme.js';

const PAGE_RULES = `*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; min-height: 100vh; font-family: var(--sw-font); font-size: 15px; line-height: 1.5; background: var(--sw-bg); color: var(--sw-text); padding: 8vh 12px 48px; }
a { color: var(--sw-link); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible { outline: 2px solid var(--sw-focus); outline-offset: 2px; }
.sw-page-brand { max-width: 400px; margin: 0 auto 16px; text-align: center; }
.sw-page-brand a, .sw-page-brand-name { display: inline-flex; align-items: center; gap: 10px; color: var(--sw-text); text-decoration: none; font-size: 20px; font-weight: 600; max-width: 100%; overflow-wrap: anywhere; }
.sw-page-brand svg { flex: none; width: 36px; height: 36px; }
.sw-icon-bg { fill: var(--sw-accent); }
.sw-icon-mark { fill: none; stroke: var(--sw-accent-text); stroke-width: 2.4; stroke-linecap: round; stroke-linejoin: round; }
.sw-card { max-width: 400px; margin: 0 auto; background: var(--sw-surface); border: 1px solid var(--sw-border); border-radius: var(--sw-radius); padding: 24px 24px 20px; box-shadow: 0 1px 3px rgba(0, 0, 0, 0.08); overflow-wrap: break-word; }
.sw-card-wide { max-width: 640px; }
.sw-page-brand:has(+ .sw-card-wide) { max-width: 640px; }
.sw-card > :first-child { margin-top: 0; }
.sw-card > :last-child { margin-bottom: 0; }
h1 { font-size: 22px; font-weight: 600; line-height: 1.3; margin: 0 0 16px; }
h2 { font-size: 17px; margin: 20px 0 8px; }
p { margin: 0 0 12px; }
code { font-size: 13px; background: var(--sw-bg); border-radius: 3px; padding: 1px 4px; overflow-wrap: anywhere; }
ul, ol { padding-left: 20px; margin: 0 0 12px; }
img, svg, canvas { max-width: 100%; height: auto; }
form { margin: 0 0 16px; }
form > p { margin-top: 12px; }
label { display: block; margin: 14px 0 4px; font-weight: 500; }
form > :first-child, form > input[type=hidden] + label, form > label:first-of-type { margin-top: 0; }
input[type=text], input[type=email], input[type=password], input[type=number], input[type=url], input[type=tel], input:not([type]), select, textarea {
  display: block; width: 100%; min-height: 40px; padding: 8px 10px; font: inherit; font-size: 16px; color: var(--sw-text);
  background: var(--sw-input-bg); border: 1px solid var(--sw-input-border); border-radius: var(--sw-radius);
}
input:focus-visible, select:focus-visible, textarea:focus-visible { outline-offset: 0; border-color: var(--sw-focus); }
input[aria-invalid=true] { border-color: var(--sw-error); }
label:has(> input[type=checkbox]), label:has(> input[type=radio]) { display: flex; align-items: center; gap: 8px; font-weight: 400; }
input[type=checkbox], input[type=radio] { width: 18px; height: 18px; margin: 0; accent-color: var(--sw-accent); }
button, .sw-button {
  display: inline-flex; align-items: center; justify-content: center; gap: 8px; min-height: 40px; padding: 8px 16px; margin: 0;
  font: inherit; font-weight: 600; line-height: 1.3; text-align: center; text-decoration: none; cursor: pointer;
  color: var(--sw-accent-text); background: var(--sw-accent); border: 1px solid var(--sw-accent); border-radius: var(--sw-radius);
}
button:hover, .sw-button:hover { background: var(--sw-accent-hover); border-color: var(--sw-accent-hover); }
form button[type=submit], form button:not([type]), .sw-button-block { display: flex; width: 100%; margin-top: 20px; }
.sso a { display: flex; width: 100%; }
.sw-button-secondary, button.sw-button-secondary, .sso a { color: var(--sw-accent); background: transparent; border-color: var(--sw-accent); }
.sso a { align-items: center; justify-content: center; min-height: 40px; padding: 8px 16px; font-weight: 600; text-decoration: none; border: 1px solid; border-radius: var(--sw-radius); }
.sw-button-secondary:hover, button.sw-button-secondary:hover, .sso a:hover { color: var(--sw-accent-hover); background: var(--sw-info-bg); border-color: var(--sw-accent-hover); }
button.link, form button.link { display: inline; width: auto; min-height: 0; margin: 0; padding: 0; font-weight: 400; color: var(--sw-link); background: none; border: 0; text-decoration: underline; }
.error, .notice, .success { margin: 0 0 16px; padding: 10px 12px; border-left: 4px solid var(--sw-accent); border-radius: 2px; background: var(--sw-info-bg); color: var(--sw-text); }
.error { border-left-color: var(--sw-error); background: var(--sw-error-bg); }
.success { border-left-color: var(--sw-success); background: var(--sw-success-bg); }
.sw-secondary, .sw-card > p:last-child:has(> a:only-child) { font-size: 14px; }
.sw-alternatives { margin: 16px 0; display: grid; gap: 8px; }
.sw-alternatives form { margin: 0; }
.sw-divider { display: flex; align-items: center; gap: 12px; margin: 16px 0; color: var(--sw-muted); font-size: 13px; }
.sw-divider::before, .sw-divider::after { content: ""; flex: 1; border-top: 1px solid var(--sw-border); }
.sw-muted, .tagline { color: var(--sw-muted); }
.sw-links { display: flex; flex-wrap: wrap; gap: 8px 20px; margin: 16px 0 0; padding: 0; list-style: none; }
altcha-widget { display: block; max-width: 100%; margin: 0 0 12px; }
@media (max-width: 400px) {
  body { padding: 24px 8px 32px; }
  .sw-card { padding: 20px 16px 16px; }
}
`;

export const PAGE_CSS = `${DESIGN_TOKENS_CSS}${PAGE_RULES}`;

/** The stylesheet's URL: the hash of its content makes it safe to cache as immutable. */
export const PAGE_STYLE_PATH = `/assets/siteward-${createHash('sha256').update(PAGE_CSS).digest('hex').slice(0, 12)}.css`;

/** Headers of the stylesheet's answer. */
export const PAGE_STYLE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/css; charset=UTF-8',
  'Cache-Control': 'public, max-age=31536000, immutable',
  'X-Content-Type-Options': 'nosniff',
});

/** Siteward's icon, drawn by the stylesheet's colours (decorative: the name beside it says it). */
export const SITEWARD_ICON_SVG =
  '<svg viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect class="sw-icon-bg" width="32" height="32" rx="7"/><path class="sw-icon-mark" d="M16 6.5l8 3v6.2c0 4.9-3.4 8.6-8 9.8-4.6-1.2-8-4.9-8-9.8V9.5z"/><path class="sw-icon-mark" d="M12.2 16.2l2.7 2.7 5-5.4"/></svg>';
