/**
 * "Lost your password?" for people: a single-use link, valid one hour, sent by e-mail when
 * SMTP is configured (`SITEWARD_SMTP_URL`, the mail setup monitor notifications use). Without
 * it the page says how an administrator sets a password from the command line. The answer to
 * a request never tells whether the account exists, and requests are rate-limited per client
 * address and per account (in status rows, so every worker shares the counts).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { findUserByLoginOrEmail } from '../../auth/sessions.js';
import { newPasswordProblem } from '../../auth/password-strength.js';
import { smtpMailer } from '../mailer.js';
import { allowRequest } from '../status-limit.js';
import { formTokenInput, htmlPage, redirect, type Feature, type PageRequest } from '../contract.js';
import { lostPasswordPage, resetPasswordPage } from './reset-pages.js';
import { auditEvent, pageSource, passwordSetEvents } from '../audit/index.js';

const RESET_META = 'password_reset';
const LINK_LIFETIME_MS = 3_600_000;
const LIMITS = { perAddress: 10, perAccount: 3, windowMs: 3_600_000 };
const SENT =
  'If that account exists, a link to choose a new password is on its way to its e-mail address. The link works once, for one hour.';
const NO_MAIL =
  'E-mail is not configured on this site, so no reset link can be sent. Ask an administrator to set a new password for you: on the server they run siteward user set-password <login>.';
const BAD_LINK = 'This password reset link is invalid, used or expired. Ask for a new one.';

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export const passwordResetFeature: Feature = {
  name: 'password-reset',
  register(ctx) {
    const { config, store, clock, log } = ctx;
    const mailer = smtpMailer(config);

    /** Counts one request under `key`; false once the window's limit is reached. */
    const allow = (key: string, limit: number): Promise<boolean> => allowRequest(store.status, key, limit, LIMITS.windowMs, clock());

    /** The user of a valid, unexpired link; undefined otherwise. */
    const linkUser = async (req: PageRequest) => {
      const login = text(req.method === 'POST' ? req.body.login : req.query.login);
      const key = text(req.method === 'POST' ? req.body.key : req.query.key);
      if (login === '' || key === '') return undefined;
      const user = await store.users.byLogin(login);
      if (!user) return undefined;
      const stored = await store.userMeta.get(user.id, RESET_META);
      if (
        !stored ||
        typeof stored !== 'object' ||
        Array.isArray(stored) ||
        typeof stored.hash !== 'string' ||
        typeof stored.expires !== 'number'
      )
        return undefined;
      const expected = Buffer.from(stored.hash, 'hex');
      const given = sha256(key);
      if (expected.length !== given.length || !timingSafeEqual(expected, given) || stored.expires <= clock()) return undefined;
      return { user, key, stored };
    };

    const send = async (to: string, link: string, siteName: string) => {
      if (!mailer) return;
      await mailer.send({
        to,
        subject: `[${siteName}] Password reset`,
        text: `Someone asked to reset the password of your account on ${siteName}.\n\nTo choose a new password, open this link within one hour (it works once):\n${link}\n\nIf this was not you, ignore this message: your password stays as it is.\n`,
      });
    };

    ctx.addPage({
      method: 'GET',
      path: '/login/lost-password',
      handle: async (req) => htmlPage(200, lostPasswordPage({ formField: formTokenInput(req), ...(mailer ? {} : { notice: NO_MAIL }) })),
    });

    ctx.addPage({
      method: 'POST',
      path: '/login/lost-password',
      async handle(req) {
        if (!mailer) return htmlPage(200, lostPasswordPage({ formField: formTokenInput(req), notice: NO_MAIL }));
        const who = text(req.body.user_login).trim();
        if (who === '')
          return htmlPage(400, lostPasswordPage({ formField: formTokenInput(req), error: 'Enter a username or e-mail address.' }));
        if (!(await allow(`password-reset:address:${req.ip}`, LIMITS.perAddress))) {
          return htmlPage(
            429,
            lostPasswordPage({
              formField: formTokenInput(req),
              error: 'Too many password reset requests from your address. Try again in an hour.',
            }),
            { 'Retry-After': '3600' },
          );
        }
        const user = await findUserByLoginOrEmail(store, who);
        // A limiter count and the site name's read whether or not the account exists, and the mail
        // started only after this answer has gone out: the answer's time should not tell who has
        // an account (the Protect unlock request does the same).
        const limited = await allow(
          user ? `password-reset:user:${user.id}` : `password-reset:unknown:${sha256(who.toLowerCase()).toString('hex')}`,
          LIMITS.perAccount,
        );
        const site = await store.options.get('blogname');
        if (user && limited) {
          const token = randomBytes(32).toString('base64url');
          const expires = clock() + LINK_LIFETIME_MS;
          // Recorded with the stored link (never the token): who asked, from where, for whom.
          const event = auditEvent(
            pageSource(req, null),
            'user.password_reset_requested',
            { type: 'user', id: String(user.id), name: user.login },
            {
              reset_link: { before: null, after: { expires } },
            },
          );
          await store.transaction(async (tx) => {
            await tx.userMeta.set(user.id, RESET_META, { hash: sha256(token).toString('hex'), expires });
            tx.audit(event);
          });
          const link = `${config.homeUrl}/login/reset-password?login=${encodeURIComponent(user.login)}&key=${token}`;
          const mail = () =>
            void send(user.email, link, typeof site === 'string' ? site : config.siteName).catch((error: unknown) =>
              log.error({ err: error }, 'password reset e-mail could not be sent'),
            );
          setTimeout(mail, 50).unref();
        }
        return htmlPage(200, lostPasswordPage({ formField: formTokenInput(req), notice: SENT }));
      },
    });

    ctx.addPage({
      method: 'GET',
      path: '/login/reset-password',
      async handle(req) {
        const found = await linkUser(req);
        if (!found) return htmlPage(400, lostPasswordPage({ formField: formTokenInput(req), error: BAD_LINK }));
        return htmlPage(200, resetPasswordPage({ formField: formTokenInput(req), login: found.user.login, key: found.key }));
      },
    });

    ctx.addPage({
      method: 'POST',
      path: '/login/reset-password',
      async handle(req) {
        const found = await linkUser(req);
        if (!found) return htmlPage(400, lostPasswordPage({ formField: formTokenInput(req), error: BAD_LINK }));
        const password = text(req.body.password);
        // A refused password keeps the link: the person tries another one.
        const problem = await newPasswordProblem(password, [found.user.login, found.user.email]);
        if (problem)
          return htmlPage(
            400,
            resetPasswordPage({ formField: formTokenInput(req), login: found.user.login, key: found.key, error: problem.message }),
          );
        // Single use, even for parallel posts of the same link: it is consumed (deleted only
        // while it still holds what was checked, one statement) before the password is set.
        if (!(await store.userMeta.deleteIf(found.user.id, RESET_META, found.stored)))
          return htmlPage(400, lostPasswordPage({ formField: formTokenInput(req), error: BAD_LINK }));
        // The actor is the link's owner (the link proves the mailbox), from the address that used it.
        const result = await ctx.auth.users.setPassword(
          found.user.login,
          password,
          passwordSetEvents(pageSource(req, found.user), 'user.password_reset'),
        );
        if (!result.ok) return htmlPage(400, lostPasswordPage({ formField: formTokenInput(req), error: result.error.message }));
        return redirect('/login?password_reset=done');
      },
    });
  },
};
