import { escapeHtml } from '../core/html.js';
import { simplePage } from '../core/simple-page.js';

/**
 * The site's home page: it advertises the REST root in `<head>` (docs/spec/site-management-api.md §4.4 rule 4) and carries
 * extra head tags such as site-verification meta tags.
 */
export function homePage(opts: { name: string; description: string; restRoot: string; headTags: string[] }): string {
  const tags = opts.headTags.map((t) => `\n${t}`).join('');
  const name = opts.name.trim() === '' ? 'Siteward' : opts.name;
  return `${simplePage(
    name,
    `\n${opts.description ? `<p class="tagline">${escapeHtml(opts.description)}</p>\n` : ''}<p>This site is managed by Siteward. Its administrators log in to the dashboard; programs use its REST API.</p>
<ul class="sw-links"><li><a class="sw-button" href="/login">Log in</a></li><li><a class="sw-button sw-button-secondary" href="/admin/">Dashboard</a></li></ul>\n`,
    {
      siteName: name,
      wide: true,
      documentTitle: name,
      head: `\n<link rel='https://api.w.org/' href='${escapeHtml(opts.restRoot)}' />${tags}\n`,
    },
  )}\n`;
}

/** The RSD discovery document carrying the REST root. */
export function rsdDocument(opts: { name: string; homeUrl: string; restRoot: string }): string {
  return `<?xml version="1.0" encoding="UTF-8"?><rsd version="1.0" xmlns="http://archipelago.phrasewise.com/rsd">
  <service>
    <engineName>Siteward</engineName>
    <homePageLink>${escapeHtml(opts.homeUrl)}</homePageLink>
    <apis>
      <api name="WP-API" blogID="1" preferred="false" apiLink="${escapeHtml(opts.restRoot)}" />
    </apis>
  </service>
</rsd>
`;
}
