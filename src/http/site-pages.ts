import { escapeHtml } from '../core/html.js';

/**
 * The site's home page: it advertises the REST root in `<head>` (docs/spec/site-management-api.md §4.4 rule 4) and carries
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
<style>body{font-family:system-ui,sans-serif;background:#f0f0f1;margin:0}main{max-width:640px;margin:10vh auto;background:#fff;padding:28px 32px;border-radius:6px;box-shadow:0 1px 3px rgba(0,0,0,.15)}h1{margin-top:0}.tagline{color:#50575e}nav a{margin-right:16px;color:#2271b1}</style>
</head>
<body>
<main>
<h1>${escapeHtml(opts.name)}</h1>
${opts.description ? `<p class="tagline">${escapeHtml(opts.description)}</p>
` : ''}<nav><a href="/login">Log in</a><a href="/admin/">Dashboard</a></nav>
</main>
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
