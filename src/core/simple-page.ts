import { escapeHtml } from './html.js';
import { PAGE_STYLE_PATH, SITEWARD_ICON_SVG } from './page-style.js';

export interface SimplePageOptions {
  /** The site's name for the header and the title (default "Siteward"). */
  readonly siteName?: string;
  /** Already-escaped tags for `<head>` (the home page's REST link and verification tags). */
  readonly head?: string;
  /** A wider card (the home page). */
  readonly wide?: boolean;
  /** The document title when it is not `<title> · <site>`. */
  readonly documentTitle?: string;
  /** Where the site's name links (default `/`); null: no link (the account service has no home page). */
  readonly brandHref?: string | null;
}

/**
 * A page of the server's own (login, setup, messages): the site's name and icon over a card
 * holding the title and an HTML body fragment, styled by the shared stylesheet (page-style.ts).
 * No inline style or script: the pages' CSP allows neither.
 */
export function simplePage(title: string, bodyHtml: string, opts: SimplePageOptions = {}): string {
  const site = opts.siteName === undefined || opts.siteName.trim() === '' ? 'Siteward' : opts.siteName;
  const documentTitle = opts.documentTitle ?? `${title} · ${site}`;
  const mark = `${SITEWARD_ICON_SVG}${opts.siteName === undefined ? DEFAULT_NAME : `<span>${escapeHtml(site)}</span>`}`;
  const brand =
    opts.brandHref === null
      ? `<span class="sw-page-brand-name">${mark}</span>`
      : `<a href="${escapeHtml(opts.brandHref ?? '/')}">${mark}</a>`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${escapeHtml(documentTitle)}</title><link rel="stylesheet" href="${PAGE_STYLE_PATH}">${opts.head ?? ''}</head><body><header class="sw-page-brand">${brand}</header><main class="sw-card${opts.wide ? ' sw-card-wide' : ''}"><h1>${escapeHtml(title)}</h1>${bodyHtml}</main></body></html>`;
}

/** The name a page rendered without `siteName` shows, until the HTTP adapter fills in the site's (withSiteName). */
const DEFAULT_NAME = '<span class="sw-site-default">Siteward</span>';

/**
 * A features' page rendered by simplePage without the site's name (the features do not read it)
 * with the site's name in its header and title; filled in by the HTTP adapter, which knows it.
 * Any other HTML comes back unchanged.
 */
export function withSiteName(html: string, siteName: string): string {
  if (siteName.trim() === '' || !html.includes(DEFAULT_NAME)) return html;
  return html
    .replace(' · Siteward</title>', () => ` · ${escapeHtml(siteName)}</title>`)
    .replace(DEFAULT_NAME, () => `<span>${escapeHtml(siteName)}</span>`);
}
