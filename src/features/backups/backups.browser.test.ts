/**
 * The Backups screen in Chromium against a real Siteward with a local backup directory and a
 * real S3-compatible server (s3rver) that fails the first backup's upload: the screen shows
 * the failure per target, "Back up now" takes a backup that reaches both, the download gives
 * the file exactly as stored, and a subscriber cannot download. Screenshots at 1280 and 360 px
 * go to test-artifacts/backups (gitignored).
 */
import { readFileSync, rmSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminScreenLoggedIn,
  artifactsDir,
  chromiumAvailable,
  launchChromium,
  seriousAxeViolations,
} from '../../../test/helpers/browser.js';
import { S3_TEST_ENV, startTestS3, type TestS3 } from '../../../test/helpers/s3-server.js';
import { createTestApp, freePort, type LoggedIn, type TestApp } from '../../../test/helpers/test-app.js';
import { main } from '../../cli.js';
import { builtInFeatures } from '../index.js';
import { backupsFeatureWith } from './index.js';
import { readStoreId } from './store-id.js';

const features = builtInFeatures.map((f) =>
  f.name === 'backups' ? backupsFeatureWith({ retry: { delaysMs: [1], sleep: async () => undefined }, s3: { sdkMaxAttempts: 1 } }) : f,
);

describe.skipIf(!chromiumAvailable)('the Backups screen in Chromium', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'siteward-backups-browser-'));
  const backupDir = path.join(root, 'backups');
  const shots = artifactsDir('backups');
  const savedEnv = { ...process.env };
  let s3: TestS3;
  let app: TestApp;
  let base: string;
  let browser: Browser;
  let admin: LoggedIn;
  let page: Page;

  beforeAll(async () => {
    s3 = await startTestS3();
    Object.assign(process.env, S3_TEST_ENV);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await createTestApp({
      port,
      dataDir: path.join(root, 'data'),
      features,
      startJobs: false,
      env: {
        SITEWARD_HOME_URL: base,
        SITEWARD_BACKUP_DIR: backupDir,
        SITEWARD_BACKUP_S3_URL: `s3://${s3.bucket}/site?endpoint=${encodeURIComponent(s3.endpoint)}&region=us-east-1&forcePathStyle=true`,
        SITEWARD_BACKUP_ENCRYPTION_KEY: 'a long random passphrase for the browser test 91c2',
        SITEWARD_BACKUP_SCHEDULE: 'off',
      },
    });
    admin = await app.loginAs('administrator', { login: 'boss' });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await s3?.close();
    process.env = savedEnv;
    rmSync(root, { recursive: true, force: true });
  });

  async function open(width: number): Promise<Page> {
    const { p } = await adminScreenLoggedIn(browser, { baseURL: base, width, user: admin, link: 'Backups', acceptDownloads: true });
    return p;
  }

  it('shows a failed off-site copy, then backs up now to both targets', async () => {
    // The bucket is cut off for the first backup: the local copy is made, the upload fails.
    s3.breakAfter(0, 4096);
    page = await open(1280);
    await page.getByRole('button', { name: 'Back up now' }).click();
    await page.getByTestId('backups-target-failure').waitFor();
    s3.heal();
    await expect(page.getByTestId('backups-summary').textContent()).resolves.toMatch(
      /^The last backup failed .*copying it off-site failed/,
    );
    await expect(page.getByTestId('backups-target-local').getByTestId('backup-row').count()).resolves.toBe(1);
    await expect(page.getByTestId('backups-target-s3').textContent()).resolves.toContain('No backups here yet.');

    await page.getByRole('button', { name: 'Back up now' }).click();
    await page.getByTestId('backups-target-s3').getByTestId('backup-row').waitFor();
    await expect(page.getByTestId('backups-summary').textContent()).resolves.toMatch(/^Your site was successfully backed-up/);
    await expect(page.getByTestId('backups-target-local').getByTestId('backup-row').count()).resolves.toBe(2);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'backups-1280.png'), fullPage: true });
  });

  it('shows the last verification of each target, its result and time, once one has run', async () => {
    await expect(page.getByTestId('backups-target-verification').count()).resolves.toBe(0);
    // The verification job is due at once (none yet): one round verifies the newest backup of each target.
    await app.app.jobs.tick();
    await page.reload();
    for (const kind of ['local', 's3']) {
      const card = page.getByTestId(`backups-target-${kind}`);
      const newest = (await card.getByTestId('backup-row').first().locator('code').textContent()) ?? '';
      const line = (await card.getByTestId('backups-target-verification').textContent()) ?? '';
      expect(line).toMatch(new RegExp(`^Verified \\S.*\\d.*: backup ${newest} restored into a temporary store`));
      expect(line).not.toMatch(/\d{4}-\d\d-\d\dT/);
      await expect(card.getByTestId('backup-row').first().textContent()).resolves.toContain('Verified');
    }
  });

  it('downloads a backup exactly as stored, from the bucket too', async () => {
    const storeId = await readStoreId(app.store);
    const row = page.getByTestId('backups-target-s3').getByTestId('backup-row').first();
    const id = (await row.locator('code').textContent()) ?? '';
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('link', { name: /Download/ }).click()]);
    const saved = path.join(root, 'downloaded.swbak');
    await download.saveAs(saved);
    expect(download.suggestedFilename()).toBe(`siteward-${id}.swbak`);
    expect(readFileSync(saved).equals(readFileSync(path.join(backupDir, storeId, `${id}.swbak`)))).toBe(true);
    expect(readFileSync(saved).subarray(0, 29).toString('latin1')).toBe('SWBAK1\nage-encryption.org/v1\n');

    const subscriber = await app.loginAs('subscriber');
    const refused = await app.request({ path: `/admin/backups/download?target=local&id=${id}`, headers: { Cookie: subscriber.cookie } });
    expect(refused.status).toBe(403);
    expect((await app.request({ path: `/admin/backups/download?target=local&id=${id}` })).status).toBe(401);
  });

  it('says of each backup whether it is encrypted, shows a manual verification, and says how to restore', async () => {
    // A backup made from the shell without the key (as before encryption was set up): plain.
    const plainConfig = path.join(root, 'plain.json');
    writeFileSync(plainConfig, JSON.stringify({ dataDir: path.join(root, 'data'), backupDir, homeUrl: base }));
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    expect(await main(['backup', 'now', '--config', plainConfig], io, { features }), out.join('\n')).toBe(0);
    const plainId = out[0]!;
    expect(await main(['backup', 'verify', plainId, '--config', plainConfig], io, { features }), out.join('\n')).toBe(0);
    await page.reload();
    const local = page.getByTestId('backups-target-local').getByTestId('backup-row');
    await local.first().waitFor();
    const rows = await local.all();
    const cells = await Promise.all(
      rows.map(async (row) => [
        (await row.locator('code').textContent()) ?? '',
        (await row.getByTestId('backup-encrypted').textContent()) ?? '',
        (await row.getByTestId('backup-verified').count()) > 0,
      ]),
    );
    expect(cells[0]).toEqual([plainId, 'Not encrypted', true]);
    expect(cells.slice(1).map((c) => c[1])).toEqual(['Encrypted', 'Encrypted']);
    const s3Rows = page.getByTestId('backups-target-s3').getByTestId('backup-row');
    await expect(s3Rows.first().getByTestId('backup-encrypted').textContent()).resolves.toBe('Encrypted');
    await expect(page.getByTestId('backups-encryption').textContent()).resolves.toBe(
      'New backups are encrypted before they are written or uploaded; each backup below says whether it is.',
    );
    await expect(page.getByTestId('backups-restore-help').textContent()).resolves.toBe(
      'To restore a backup: stop the server, run npx siteward backup restore <id> in its directory (add --from-store <store id> for a backup of another store), then start the server again.',
    );
    await page.screenshot({ path: path.join(shots, 'backups-encryption-1280.png'), fullPage: true });
  });

  it('fits a 360 px wide screen', async () => {
    const narrow = await open(360);
    await narrow.getByTestId('backups-target-s3').getByTestId('backup-row').first().waitFor();
    const overflow = await narrow.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBe(0);
    await narrow.screenshot({ path: path.join(shots, 'backups-360.png'), fullPage: true });
  });
});
