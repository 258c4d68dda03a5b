/**
 * Chromium for the browser tests: Debian's /usr/bin/chromium (or SITEWARD_CHROMIUM) driven by
 * playwright-core, never a downloaded browser. Where it is missing the browser tests are skipped
 * with a loud message, except under CI=true, where a missing Chromium fails the run (.ci/run
 * installs it with apt first).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.SITEWARD_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const chromiumAvailable = existsSync(CHROMIUM_PATH);

/**
 * How long a page waits for what a step expects (Playwright's default timeout in every browser
 * test): a bound, never a timing assertion. Generous because CI and developers' machines run the
 * browser beside the server and other suites on two cores, where a page with six cards loading
 * took over 10 s once under two full suites at once.
 */
export const BROWSER_WAIT_MS = 30_000;
export const onCi = process.env.CI === 'true';

if (!chromiumAvailable && !onCi) {
  const line = '!'.repeat(78);
  console.warn(
    `\n${line}\n!! BROWSER TESTS SKIPPED: no Chromium at ${CHROMIUM_PATH}.\n!! Install it (Debian: apt-get install -y chromium) or set SITEWARD_CHROMIUM.\n${line}\n`,
  );
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** test-artifacts/<sub>, made if needed (gitignored). */
export function artifactsDir(sub: string): string {
  const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-artifacts', sub);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations on the page as it is now, one line each
 * (`rule (impact): help — targets`). axe is evaluated as text, which the pages' strict CSP cannot refuse.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const w = globalThis as unknown as {
      document: unknown;
      axe: {
        run: (
          ctx: unknown,
          opts: object,
        ) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
      };
    };
    const result = await w.axe.run(w.document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** What a page of the browser tests watches and how its context is made. */
export interface WatchedPageOptions {
  baseURL: string;
  width: number;
  /** Uncaught page errors (and, with `consoleErrors`, console errors other than failed resource loads) land here. */
  problems?: string[];
  consoleErrors?: boolean;
  /** Content-Security-Policy violations become console errors (so `consoleErrors` reports them). */
  cspViolations?: boolean;
  /** The browser prefers a dark colour scheme. */
  dark?: boolean;
  height?: number;
  acceptDownloads?: boolean;
}

/**
 * A new browser context at `width` × 900 (or `height`) and its page, waiting at most
 * BROWSER_WAIT_MS for each step, with the watchers `options` asks for. One set-up for every
 * browser test (they each repeated it).
 */
export async function watchedPage(browser: Browser, options: WatchedPageOptions): Promise<{ ctx: BrowserContext; p: Page }> {
  const ctx = await browser.newContext({
    viewport: { width: options.width, height: options.height ?? 900 },
    baseURL: options.baseURL,
    colorScheme: options.dark ? 'dark' : 'light',
    ...(options.acceptDownloads ? { acceptDownloads: true } : {}),
  });
  const p = await ctx.newPage();
  p.setDefaultTimeout(BROWSER_WAIT_MS);
  const problems = options.problems;
  if (problems) {
    p.on('pageerror', (e) => problems.push(String(e)));
    if (options.consoleErrors) {
      p.on('console', (m) => {
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
      });
    }
  }
  if (options.cspViolations) {
    await p.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP ' + e.effectiveDirective + ' blocked ' + e.blockedURI + ' at ' + e.sourceFile + ':' + e.lineNumber));",
    });
  }
  return { ctx, p };
}

/** Fills the login form the page is on (or is sent to from `to`) and waits for the admin page. */
export async function logInThroughForm(p: Page, user: { login: string; password: string }, to?: string): Promise<void> {
  if (to !== undefined) await p.goto(to);
  await p.fill('#user_login', user.login);
  await p.fill('#user_pass', user.password);
  await Promise.all([p.waitForURL((url) => url.pathname === '/admin/'), p.click('button[type=submit]')]);
}

/**
 * A new browser context at `width` × 900 whose page has logged in through the login form on its
 * way to /admin/. Uncaught page errors (and, with `consoleErrors`, console errors other than
 * failed resource loads) are pushed to `problems`.
 */
export async function adminPageLoggedIn(
  browser: Browser,
  options: WatchedPageOptions & { user: { login: string; password: string } },
): Promise<{ ctx: BrowserContext; p: Page }> {
  const opened = await watchedPage(browser, options);
  await logInThroughForm(opened.p, options.user, '/admin/');
  return opened;
}

/**
 * Logged in as `adminPageLoggedIn`, then on the screen the menu link `link` opens, once its
 * `heading` (h1) shows.
 */
export async function adminScreenLoggedIn(
  browser: Browser,
  options: WatchedPageOptions & { user: { login: string; password: string }; link: string; heading?: string },
): Promise<{ ctx: BrowserContext; p: Page }> {
  const opened = await adminPageLoggedIn(browser, options);
  await opened.p.getByRole('link', { name: options.link, exact: true }).first().click();
  await opened.p.getByRole('heading', { level: 1, name: options.heading ?? options.link }).waitFor();
  return opened;
}

/** Moves the admin app to `hash` and waits for the screen's `heading` (h1). */
export async function goToScreen(p: Page, hash: string, heading: string): Promise<void> {
  await p.evaluate((h) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = h;
  }, hash);
  await p.getByRole('heading', { level: 1, name: heading }).waitFor();
}
