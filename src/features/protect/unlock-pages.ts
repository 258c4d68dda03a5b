/**
 * `/login/unlock`: a blocked person asks for an unlock link; it is e-mailed to the account's
 * address only when the account exists, the client's address is blocked and SMTP is configured,
 * and the answer is the same page either way (the mail goes out in the background). The link is
 * single use and short-lived, and lifts the block of the address that asked for it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { findUserByLoginOrEmail } from '../../auth/sessions.js';
import { formTokenInput, htmlPage, type FeatureContext, type PageRequest } from '../contract.js';
import { siteNameOf, type Mailer } from '../mailer.js';
import { allowRequest } from '../status-limit.js';
import type { ProtectBlocks } from './protect-blocks.js';
import { pageSource } from '../audit/index.js';
import { keyOf, type ProtectPolicy } from './protect-policy.js';
import { noMailText, UNLOCK_PATH, unlockConfirmPage, unlockDonePage, unlockRequestPage } from './unlock-html.js';

/** How long a link works: long enough to read the mail, short enough that an old mail is worthless. */
export const UNLOCK_LINK_LIFETIME_MS = 15 * 60_000;
const LIMITS = { perAddress: 5, perAccount: 3, windowMs: 3_600_000 };
const SENT =
  'If that account exists and your address is blocked, an unlock link is on its way to the account’s e-mail address. It works once, for 15 minutes.';
const BAD_LINK = 'This unlock link is invalid, used or expired. Ask for a new one from the login page.';

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export function registerUnlockPages(
  ctx: FeatureContext,
  deps: { blocks: ProtectBlocks; policy: ProtectPolicy; mailer: Mailer | null },
): void {
  const { store, clock, log, config } = ctx;
  const { blocks, policy, mailer } = deps;

  const requestPage = (req: PageRequest, status: number, extra: { error?: string; notice?: string } = {}) =>
    htmlPage(status, unlockRequestPage({ formField: formTokenInput(req), mail: mailer !== null, address: keyOf(req.ip), ...extra }));

  const send = async (to: string, link: string, address: string) => {
    if (mailer === null) return;
    const site = await siteNameOf(store.options, config.siteName);
    await mailer.send({
      to,
      subject: `[${site}] Unlock link`,
      text: `Someone at ${address} was blocked after failed logins on ${site} and asked for an unlock link for your account.\n\nTo lift the block, open this link within 15 minutes (it works once):\n${link}\n\nIf this was not you, ignore this message: the address stays blocked until the block ends.\n`,
    });
  };

  ctx.addPage({
    method: 'GET',
    path: UNLOCK_PATH,
    async handle(req) {
      const key = text(req.query.key);
      if (key === '') return requestPage(req, 200, mailer === null ? { notice: noMailText(keyOf(req.ip)) } : {});
      const ticket = await blocks.peekUnlock(sha256(key), clock());
      if (ticket === null || ticket.userId === 0) return requestPage(req, 400, { error: BAD_LINK });
      return htmlPage(200, unlockConfirmPage({ formField: formTokenInput(req), key, address: ticket.key }));
    },
  });

  ctx.addPage({
    method: 'POST',
    path: UNLOCK_PATH,
    async handle(req) {
      if (mailer === null) return requestPage(req, 200, { notice: noMailText(keyOf(req.ip)) });
      const who = text(req.body.user_login).trim();
      if (who === '') return requestPage(req, 400, { error: 'Enter a username or e-mail address.' });
      const now = clock();
      if (!(await allowRequest(store.status, `protect-unlock:address:${keyOf(req.ip)}`, LIMITS.perAddress, LIMITS.windowMs, now))) {
        return htmlPage(
          429,
          unlockRequestPage({
            formField: formTokenInput(req),
            mail: true,
            address: keyOf(req.ip),
            error: 'Too many unlock requests from your address. Try again in an hour.',
          }),
          { 'Retry-After': '3600' },
        );
      }
      const user = await findUserByLoginOrEmail(store, who);
      // The same queries and writes whether the account exists or not (an unknown one gets a
      // token under user 0 that is never sent, limited alike); only the mail differs.
      const recent = await blocks.unlocksSince(user?.id ?? 0, now - LIMITS.windowMs);
      const blocked = await policy.check(req.ip, now);
      if (blocked.blocked && recent < LIMITS.perAccount) {
        const token = randomBytes(32).toString('base64url');
        const key = keyOf(req.ip);
        await blocks.addUnlock({
          hash: sha256(token),
          key,
          address: req.ip,
          userId: user?.id ?? 0,
          now,
          expires: now + UNLOCK_LINK_LIFETIME_MS,
        });
        if (user !== undefined) {
          const link = `${config.homeUrl}${UNLOCK_PATH}?key=${token}`;
          log.info({ event: 'protect.unlock_requested', address: key, user: user.login }, 'protect unlock link requested');
          // In the background, after this answer has gone out: waiting for the mail server (or
          // even sharing the event loop with its start) would tell who has an account.
          const mail = () =>
            void send(user.email, link, key).catch((error: unknown) =>
              log.error({ err: error }, 'protect unlock e-mail could not be sent'),
            );
          setTimeout(mail, 50).unref();
        }
      }
      return requestPage(req, 200, { notice: SENT });
    },
  });

  ctx.addPage({
    method: 'POST',
    path: `${UNLOCK_PATH}/confirm`,
    async handle(req) {
      const key = text(req.body.key);
      const ticket = key === '' ? null : await blocks.useUnlock(sha256(key), clock());
      // User 0's tokens were never sent (see above): they lift nothing.
      if (ticket === null || ticket.userId === 0) return requestPage(req, 400, { error: BAD_LINK });
      const user = await store.users.byId(ticket.userId);
      const by = `link:${user?.login ?? ticket.userId}`;
      // The link's owner lifts the block; the request comes from the blocked address.
      const lifted = await blocks.lift(ticket.key, clock(), by, pageSource(req, user ?? null));
      log.info(
        { event: 'protect.unblocked', address: ticket.key, by, lifted: lifted.length > 0 },
        'protect block lifted by an unlock link',
      );
      return htmlPage(200, unlockDonePage(ticket.key));
    },
  });
}
