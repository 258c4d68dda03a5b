import { randomBytes } from 'node:crypto';
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
  return CSP_PIECES[0] + nonce + CSP_PIECES[1] + nonce + CSP_PIECES[2];
}

/** The policy cut where the nonce goes, once (built per response it was 0.6 % of the page's CPU). */
const CSP_PIECES = [
  "default-src 'none'",
  "script-src 'self' 'nonce-\0'",
  "style-src 'self' 'nonce-\0'",
  // Gravatar pictures of linked accounts; data: for the component library's inline icons.
  "img-src 'self' data: https://secure.gravatar.com https://*.gravatar.com",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
]
  .join('; ')
  .split('\0') as [string, string, string];

/**
 * The live regions @wordpress/a11y announces notices in. Rendered here (styled by the app's
 * stylesheet) because the library would otherwise add them with a style attribute, which the CSP
 * refuses.
 */
const A11Y_REGIONS =
  '<p id="a11y-speak-intro-text" class="a11y-speak-intro-text" hidden>Notifications</p>' +
  '<div id="a11y-speak-assertive" class="a11y-speak-region" aria-live="assertive" aria-relevant="additions text" aria-atomic="true"></div>' +
  '<div id="a11y-speak-polite" class="a11y-speak-region" aria-live="polite" aria-relevant="additions text" aria-atomic="true"></div>';

type Notice = { tone: 'success' | 'error'; text: string } | null | undefined;

/** The `?connection=` notice's HTML ('' without one). */
function noticeHtml(notice: Notice): string {
  return notice ? `<div id="connection-notice" class="notice notice-${notice.tone}" role="status">${escapeHtml(notice.text)}</div>\n` : '';
}

/** What changes with every response or session; the rest of the page is the same for a user while the state stays. */
export interface AdminPageResponseParts {
  /** `Initial_State.WP_API_nonce`: the session's `wp_rest` nonce. */
  readonly restNonce: string;
  /** The `log-out` nonce the logout form carries (POST /logout refuses cross-site requests without one). */
  readonly logoutNonce: string;
  /** The CSP nonce of the inline script, new for every response. */
  readonly cspNonce: string;
  readonly notice?: Notice;
}

/** The page of one user and state, as UTF-8 bytes with holes for the per-response parts. */
export interface AdminPageTemplate {
  /** Bytes its fixed pieces hold (the cache's size measure). */
  readonly bytes: number;
  /** The page of one response, as chunks to write in order (PageResponse.body). */
  fill(parts: AdminPageResponseParts): Buffer[];
}

/**
 * Renders the page once with unguessable markers where the per-response parts go and splits it
 * there; `fill` then escapes each part exactly as the page would and puts it between the pieces.
 * The markers are made of characters no escaping changes, so they survive into the text
 * unaltered, and being random per template they cannot be forged by any rendered value (a user
 * name, an option).
 *
 * Speed (issue 26): the fixed pieces are kept encoded and are written as they are, so a response
 * encodes only its few short parts; the page's ~66 K characters include some beyond Latin-1, and
 * encoding them to UTF-8 on every response cost more than everything else the request did.
 */
export function adminPageTemplate(opts: {
  initialState: Record<string, unknown>;
  userLogin: string;
  bundle: AdminBundle | null;
}): AdminPageTemplate {
  const mark = randomBytes(12).toString('hex');
  const slot = { rest: `swslot${mark}rest`, logout: `swslot${mark}logout`, csp: `swslot${mark}csp`, notice: `swslot${mark}notice` };
  const html = renderAdminPage(
    { ...opts, initialState: { ...opts.initialState, WP_API_nonce: slot.rest }, logoutNonce: slot.logout, nonce: slot.csp },
    slot.notice,
  );
  // `"slot.rest"` with its JSON quotes: the nonce goes in as a JSON string.
  const pieces = html.split(new RegExp(`("${slot.rest}"|${slot.logout}|${slot.csp}|${slot.notice})`));
  const statics: Buffer[] = [];
  const holes: ((p: AdminPageResponseParts) => string)[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (i % 2 === 0) statics.push(Buffer.from(piece, 'utf8'));
    else if (piece === `"${slot.rest}"`) holes.push((p) => scriptJson(p.restNonce));
    else if (piece === slot.logout) holes.push((p) => escapeHtml(p.logoutNonce));
    else if (piece === slot.csp) holes.push((p) => escapeHtml(p.cspNonce));
    else holes.push((p) => noticeHtml(p.notice));
  }
  return {
    bytes: statics.reduce((sum, piece) => sum + piece.length, 0),
    fill(parts) {
      const chunks = [statics[0]!];
      for (let i = 0; i < holes.length; i++) chunks.push(Buffer.from(holes[i]!(parts), 'utf8'), statics[i + 1]!);
      return chunks;
    },
  };
}

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
  notice?: Notice;
}): string {
  return renderAdminPage(opts, noticeHtml(opts.notice));
}

function renderAdminPage(
  opts: { initialState: Record<string, unknown>; userLogin: string; logoutNonce: string; nonce: string; bundle: AdminBundle | null },
  notice: string,
): string {
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
