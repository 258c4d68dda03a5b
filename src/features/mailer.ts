/**
 * The site's outgoing e-mail (`SITEWARD_SMTP_URL`, sender `SITEWARD_MAIL_FROM`): one transport
 * per feature that mails people (password reset, Protect's unlock links and digests), with the
 * same timeouts. Null when SMTP is not configured: callers then say so instead of pretending.
 */
import { smtpTransport } from '../core/smtp-transport.js';
import type { Config } from '../config/config.js';
import type { OptionsRepo } from '../store/types.js';

export interface Mailer {
  send(message: { readonly to: string | readonly string[]; readonly subject: string; readonly text: string }): Promise<void>;
}

const TIMEOUT_MS = 10_000;

export function smtpMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>): Mailer | null {
  if (!config.smtpUrl) return null;
  // nodemailer itself loads with the first message (smtp-transport.ts).
  const transport = smtpTransport(config.smtpUrl, TIMEOUT_MS);
  return {
    async send(message) {
      await transport.sendMail({
        from: config.mailFrom,
        to: typeof message.to === 'string' ? message.to : [...message.to],
        subject: message.subject,
        text: message.text,
      });
    },
  };
}

/** The site's name for subjects: the `blogname` option, else the configured initial name. */
export async function siteNameOf(options: OptionsRepo, fallback: string): Promise<string> {
  const stored = await options.get('blogname');
  return typeof stored === 'string' && stored !== '' ? stored : fallback;
}
