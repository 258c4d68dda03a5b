/**
 * Tells the chosen administrators (e-mail) and, when asked, the monitor's webhook about new
 * blocks: at most one digest an hour, across every worker and host (the last digest's time is
 * claimed in the store). The first block after a quiet hour is told at once; later ones wait for
 * the next digest, which the hourly job sends.
 */
import type { Logger } from '../../plugins/api.js';
import type { Mailer } from '../mailer.js';
import type { ProtectBlocks } from './protect-blocks.js';

export const DIGEST_GAP_MS = 3_600_000;

export type WebhookFormat = 'json' | 'slack' | 'discord';

export interface DigestDeps {
  readonly blocks: ProtectBlocks;
  readonly clock: () => number;
  readonly log: Logger;
  readonly mailer: Mailer | null;
  readonly recipients: () => Promise<string[]>;
  /** The monitor's webhook, when set and chosen for Protect too. */
  readonly webhook: () => Promise<{ readonly url: string; readonly format: WebhookFormat } | null>;
  readonly siteName: () => Promise<string>;
}

export type DigestResult = 'sent' | 'nothing-new' | 'too-soon' | 'nobody';

export function protectDigest(deps: DigestDeps): { run(): Promise<DigestResult> } {
  return {
    async run() {
      const recipients = deps.mailer === null ? [] : await deps.recipients();
      const webhook = await deps.webhook();
      if (recipients.length === 0 && webhook === null) return 'nobody';
      const now = deps.clock();
      const previous = await deps.blocks.claimDigest(now, DIGEST_GAP_MS);
      if (previous === null) return 'too-soon';
      // Blocks from before the notifications were set up (or a long pause) are not news any more.
      const started = await deps.blocks.startedBetween(Math.max(previous, now - 2 * DIGEST_GAP_MS), now);
      if (started.length === 0) {
        await deps.blocks.releaseDigest(now, previous);
        return 'nothing-new';
      }
      const site = await deps.siteName();
      const subject = `[${site}] Protect blocked ${started.length === 1 ? `${started[0]?.key ?? ''}` : `${started.length} addresses`}`;
      const lines = started.map(
        (b) =>
          `${b.key}\tblocked ${new Date(b.at).toISOString()} until ${new Date(b.until).toISOString()}${b.level === 2 ? ' (escalated)' : ''} after ${b.failures} failed logins (last from ${b.address})`,
      );
      const text = `Protect blocked these addresses after failed logins on ${site}:\n\n${lines.join('\n')}\n\nThe Protect screen of the admin page lists them with the usernames tried; "siteward protect unblock <address>" lifts a block.\nYou get at most one of these e-mails an hour.\n`;
      // Sent in the background: the lockout that triggered the digest must not wait for a mail server.
      if (deps.mailer !== null && recipients.length > 0) {
        void deps.mailer
          .send({ to: recipients, subject, text })
          .catch((error: unknown) => deps.log.error({ err: error }, 'protect digest e-mail could not be sent'));
      }
      if (webhook !== null) {
        const bodyOf = (): unknown => {
          if (webhook.format === 'slack') return { text: `*${subject}*\n${text}` };
          if (webhook.format === 'discord') return { content: `**${subject}**\n${text}` };
          return {
            event: 'protect.blocked',
            at: new Date(now).toISOString(),
            message: subject,
            text,
            blocks: started.map((b) => ({
              address: b.key,
              last_address: b.address,
              blocked_at: new Date(b.at).toISOString(),
              blocked_until: new Date(b.until).toISOString(),
              level: b.level,
              failures: b.failures,
            })),
          };
        };
        void fetch(webhook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(bodyOf()),
          signal: AbortSignal.timeout(10_000),
        })
          .then(async (response) => {
            await response.body?.cancel();
            if (!response.ok) deps.log.error({ status: response.status }, 'protect digest webhook refused');
          })
          .catch((error: unknown) => deps.log.error({ err: error }, 'protect digest webhook could not be posted'));
      }
      deps.log.info(
        { event: 'protect.digest', blocks: started.length, recipients: recipients.length, webhook: webhook !== null },
        'protect digest sent',
      );
      return 'sent';
    },
  };
}
