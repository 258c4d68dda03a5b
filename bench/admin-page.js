// The admin page's budget (issue 15), reported by `npm run bench`, not asserted in tests:
// the JavaScript the first screen loads (gzipped, from the build's manifest), and the first
// contentful paint of /admin/ in Debian's Chromium (skipped when it is not installed). The
// server CPU of the /admin/ HTML is a load scenario (bench/scenarios.js).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILD = path.join(ROOT, 'dist/admin');
const CHROMIUM = process.env.SITEWARD_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Bytes (raw and gzip -9) of the entry script and every chunk it imports, plus its CSS. */
export function adminBundleSize() {
  const manifest = JSON.parse(readFileSync(path.join(BUILD, 'manifest.json'), 'utf8'));
  const entry = Object.values(manifest).find((c) => c.isEntry);
  if (!entry) throw new Error('dist/admin/manifest.json has no entry: run npm run build');
  const js = new Set([entry.file]);
  const css = new Set(entry.css ?? []);
  const walk = (keys = []) => {
    for (const key of keys) {
      const chunk = manifest[key];
      if (!chunk || js.has(chunk.file)) continue;
      js.add(chunk.file);
      for (const c of chunk.css ?? []) css.add(c);
      walk(chunk.imports);
    }
  };
  walk(entry.imports);
  const size = (files) =>
    [...files].reduce(
      (sum, file) => {
        const bytes = readFileSync(path.join(BUILD, file));
        return { raw: sum.raw + bytes.length, gzip: sum.gzip + gzipSync(bytes, { level: 9 }).length };
      },
      { raw: 0, gzip: 0 },
    );
  return { js: size(js), css: size(css), files: js.size + css.size };
}

/** Median first contentful paint (ms) of /admin/ over `runs` cold loads, or null without Chromium. */
export async function adminFirstPaint(baseUrl, cookieHeader, runs = 5) {
  if (!existsSync(CHROMIUM)) return null;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const cookies = cookieHeader.split('; ').map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: baseUrl };
    });
    const times = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addCookies(cookies);
      const page = await context.newPage();
      await page.goto(`${baseUrl}/admin/`, { waitUntil: 'load' });
      await page.waitForSelector('h1');
      const fcp = await page.evaluate(() => globalThis.performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
      if (fcp !== null) times.push(fcp);
      await context.close();
    }
    times.sort((a, b) => a - b);
    return times.length ? times[Math.floor(times.length / 2)] : null;
  } finally {
    await browser.close();
  }
}
