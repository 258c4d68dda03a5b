/**
 * Protect (the `protect` module): brute-force protection of every password check Siteward makes
 * (login form and JSON, HTTP Basic with application passwords, setup tokens), counted in the
 * store so that every worker and host sharing it sees one count (docs/spec/compat.md §9).
 * Blocks are listed and lifted from the admin page (`siteward/v1/protect/…`), the CLI
 * (`siteward protect`) and an e-mailed unlock link; new blocks are told in an hourly-at-most digest.
 */
import type { Feature, FeatureContext } from '../contract.js';
import { registerHistoryRoute, siteTimeZone } from '../history-route.js';
import { featureDb } from '../db/feature-db.js';
import { allowListReader } from './allow-list-reader.js';
import { PROTECT_MIGRATIONS } from './migration.js';
import { createPasswordGuard } from './password-guard.js';
import { ProtectPolicy } from './protect-policy.js';
import { KyselyProtectRepo } from './protect-repo.js';
import type { ProtectTables } from './protect-tables.js';
import { protectSettings } from './settings.js';
import { ProtectBlocks } from './protect-blocks.js';
import { protectCommand } from './protect-command.js';
import { protectDigest } from './protect-digest.js';
import { registerProtectRoutes } from './protect-routes.js';
import { RequestSources } from '../audit/index.js';
import { registerProtectAbilities } from './abilities.js';
import { ProtectService } from './protect-service.js';
import { registerUnlockPages } from './unlock-pages.js';
import { siteNameOf, smtpMailer } from '../mailer.js';
import { DAY_MS } from '../../core/time.js';
import type { ProtectHistory } from '../../wire/siteward-v1.js';
import { JETPACK_NAMESPACE } from '../jetpack-v4/route-helpers.js';
import { defineRoute } from '../../rest/define-route.js';

// The surface other features use (test/layers.test.ts): the login form's lockout key and unlock offer,
// and what the jetpack/v4 module options need to read and write Protect's allow list and key.
export { keyOf } from './protect-policy.js';
export { unlockOffer } from './unlock-html.js';
export { ALLOW_LIST_OPTION, allowListTexts, INVALID_ALLOW_LIST_MESSAGE, MAX_ALLOW_LIST_ENTRIES, parseAllowList } from './allow-list.js';
export { updateProtectKey } from './protect-key.js';

const MODULE = 'protect';

export const protectFeature: Feature = {
  name: 'protect',
  settings: protectSettings,
  migrations: PROTECT_MIGRATIONS,
  register(ctx) {
    const jetpack = ctx.need('jetpack');
    const { config } = ctx;
    const db = featureDb<ProtectTables>(ctx.store);
    const policy = new ProtectPolicy(new KyselyProtectRepo(db), {
      maxFailures: config.protectMaxFailures,
      windowSeconds: config.protectWindow,
      blockSeconds: config.protectBlock,
    });
    const blocks = new ProtectBlocks(db);
    const service = new ProtectService({ blocks, store: ctx.store, clock: ctx.clock, log: ctx.log });
    const mailer = smtpMailer(config);
    const digest = protectDigest({
      blocks,
      clock: ctx.clock,
      log: ctx.log,
      mailer,
      recipients: () => service.recipients(),
      webhook: async () =>
        config.monitorWebhook !== null && config.monitorWebhook !== undefined && (await service.notifications()).webhook
          ? { url: config.monitorWebhook, format: config.monitorWebhookFormat }
          : null,
      siteName: () => siteNameOf(ctx.store.options, config.siteName),
    });
    // Read per attempt (options cache): an activation in any worker applies to the next attempt.
    const isActive = () => jetpack.isModuleActive(MODULE);
    registerGuard(ctx, policy, isActive, () => digest.run());

    const permission = jetpack.permission('view_admin');
    const active = jetpack.moduleActive(MODULE);
    ctx.api.registerRoute(
      JETPACK_NAMESPACE,
      '/module/protect/count/get',
      defineRoute({
        permission,
        guards: [active],
        // A numeric string, as the reference's option value came back from the database (§3.19).
        handler: async () => String(await policy.blockedCount()),
      }),
    );
    // The 4.3+ spelling answers a bare integer (docs/spec/current-clients.md A.6).
    jetpack.registerModuleData(
      MODULE,
      jetpack.whenModuleActive(MODULE, () => policy.blockedCount()),
    );
    registerHistoryRoute(
      ctx.api,
      '/protect/history',
      permission,
      async (days) => {
        const timeZone = await siteTimeZone(ctx.store.options, config.timezone);
        const history = await policy.historyByDay(days, ctx.clock(), timeZone);
        return { days, timezone: timeZone, total: await policy.blockedCount(), history } satisfies ProtectHistory;
      },
      [active],
    );

    registerProtectRoutes(
      ctx.api,
      service,
      jetpack.requirePermission('manage_settings'),
      {
        mail: mailer !== null,
        webhook: Boolean(config.monitorWebhook),
      },
      new RequestSources(ctx.store.appPasswords, ctx.clock),
    );
    registerProtectAbilities(ctx.api, service, jetpack.allows);
    registerUnlockPages(ctx, { blocks, policy, mailer });
    ctx.addCommand(protectCommand(service));
    // The blocks a lockout did not tell at once (within the hour after a digest) go out with the next one.
    ctx.addJob({ name: 'protect-digest', everyMs: 60_000, run: () => digest.run() });

    // Runs whether the module is active or not: history must not outlive the retention.
    ctx.addJob({
      name: 'protect-purge',
      everyMs: 3_600_000,
      run: async () => {
        const purged = await policy.purge(ctx.clock(), config.historyRetentionDays * DAY_MS);
        await blocks.purgeUnlocks(ctx.clock());
        if (purged.failures + purged.blocks + purged.events > 0)
          ctx.log.info({ event: 'protect.purged', ...purged }, 'protect history purged');
      },
    });
  },
};

function registerGuard(
  ctx: FeatureContext,
  policy: ProtectPolicy,
  isActive: () => Promise<boolean>,
  onLockout: () => Promise<unknown>,
): void {
  const guard = createPasswordGuard({
    policy,
    clock: ctx.clock,
    allowList: allowListReader(ctx.store.options),
    active: isActive,
    challengeAfter: ctx.config.protectChallengeAfter,
  });
  const at = () => new Date(ctx.clock()).toISOString();
  ctx.addPasswordGuard({
    wantsChallenge: (attempt) => guard.wantsChallenge(attempt),
    refusalNow: (attempt) => guard.refusalNow(attempt),
    challengeRefused: async (attempt) => {
      await guard.challengeRefused(attempt);
      ctx.log.info(
        { event: 'protect.challenge_refused', at: at(), address: attempt.ip, login: attempt.login, via: attempt.via },
        'login attempt refused: challenge not solved',
      );
    },
    before: async (attempt) => {
      const verdict = await guard.before(attempt);
      // The attempt as an event: time, address, login, entry point. Never the password.
      if (!verdict.allow) {
        ctx.log.warn(
          {
            event: 'protect.blocked',
            at: at(),
            address: attempt.ip,
            login: attempt.login,
            via: attempt.via,
            retryAfter: verdict.retryAfterSeconds,
          },
          'login attempt refused: address blocked',
        );
      }
      return verdict;
    },
    after: async (attempt, outcome, ticket) => {
      const record = await guard.after(attempt, outcome, ticket);
      if (record.recorded && record.outcome.kind === 'blocked') {
        const { level, until } = record.outcome;
        ctx.log.warn(
          // `blockLevel`, not `level`: that key is the log line's own (pino's), which a block's 1 or 2 would replace.
          {
            event: 'protect.lockout',
            at: at(),
            address: attempt.ip,
            login: attempt.login,
            blockLevel: level,
            until: new Date(until).toISOString(),
          },
          'address blocked after failed logins',
        );
        // The digest's claim is decided here (one store transaction); the sending happens in the background.
        await onLockout().catch((error: unknown) => ctx.log.error({ err: error }, 'protect digest failed'));
      }
    },
  });
}
