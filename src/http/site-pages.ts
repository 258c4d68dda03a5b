import { escapeHtml } from '../core/html.js';

/**
 * The site's home page: it advertises the REST root in `<head>` (spec 4.4 rule 4) and carries
 * extra head tags such as site-verification meta tags.
 */
export function homePage(opts: { name: string; description: string; restRoot: string; headTags: string[] }): string {
  const tags = opts.headTags.map((t) => `\n${t}`).join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.name)}</title>
<link rel='https://api.w.org/' href='${escapeHtml(opts.restRoot)}' />${tags}
</head>
<body>
<h1>${escapeHtml(opts.name)}</h1>
<p>${escapeHtml(opts.description)}</p>
</body>
</html>
`;
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
