import { escapeHtml } from '../../core/html.js';
import type { AdminBundle } from './admin-bundle.js';

/** JSON safe inside a `<script>` element (no `</script>`, no HTML comment or line-separator tricks). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The Content-Security-Policy of the admin page: scripts and styles only from this origin, plus
 * the one inline script (Initial_State) and the style elements the component library inserts,
 * both carrying the per-response nonce; no framing, no plugins, no base or form target elsewhere.
 */
export function adminPageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    // Gravatar pictures of linked accounts; data: for the component library's inline icons.
    "img-src 'self' data: https://secure.gravatar.com https://*.gravatar.com",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The live regions @wordpress/a11y announces notices in. Rendered here (styled by the app's
 * stylesheet) because the library would otherwise add them with a style attribute, which the CSP
 * refuses.
 */
const A11Y_REGIONS =
  '<p id="a11y-speak-intro-text" class="a11y-speak-intro-text" hidden>Notifications</p>' +
  '<div id="a11y-speak-assertive" class="a11y-speak-region" aria-live="assertive" aria-relevant="additions text" aria-atomic="true"></div>' +
  '<div id="a11y-speak-polite" class="a11y-speak-region" aria-live="polite" aria-relevant="additions text" aria-atomic="true"></div>';

/**
 * The admin page shell. It carries `window.Initial_State` (REST root, nonce, modules, …) exactly
 * as the historical admin client expects it, inline (so the first screen needs no request), and
 * loads the built app (src/admin). The `?connection=` notice is rendered here and taken over by
 * the app, so it shows even before the script runs.
 */
export function adminPage(opts: {
  initialState: Record<string, unknown>;
  userLogin: string;
  /** The `log-out` nonce the logout form carries (POST /logout refuses cross-site requests without one). */
  logoutNonce: string;
  nonce: string;
  bundle: AdminBundle | null;
  notice?: { tone: 'success' | 'error'; text: string } | null;
}): string {
  const notice = opts.notice ? `<div id="connection-notice" class="notice notice-${opts.notice.tone}" role="status">${escapeHtml(opts.notice.text)}</div>\n` : '';
  const nonce = escapeHtml(opts.nonce);
  const bundle = opts.bundle;
  const head = bundle
    ? [
        ...bundle.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
        ...bundle.preloads.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}">`),
      ].join('\n')
    : '';
  const app = bundle
    ? `<script type="module" src="${escapeHtml(bundle.script)}"></script>`
    : '<p class="sw-boot">The admin app is not built: run <code>npm run build</code>, then reload.</p>';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Siteward admin</title>
${head}
<script nonce="${nonce}">var Initial_State = ${scriptJson(opts.initialState)};</script>
${app}
</head>
<body>
<div id="sw-server-notices">${notice}</div>
<div id="root"><header class="sw-boot-header"><strong>Siteward</strong> <form method="post" action="/logout"><input type="hidden" name="_wpnonce" value="${escapeHtml(opts.logoutNonce)}"><span>${escapeHtml(opts.userLogin)}</span> <button type="submit">Log out</button></form></header><noscript><p>The admin page needs JavaScript.</p></noscript></div>
${A11Y_REGIONS}
</body>
</html>
`;
}
