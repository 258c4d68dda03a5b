import type { SendMailOptions, Transporter } from 'nodemailer';

/** An SMTP transport for `smtp://…`/`smtps://…`, with the same timeout for connecting, greeting and idle sockets. */
export interface SmtpTransport {
  sendMail(message: SendMailOptions): Promise<unknown>;
  close(): void;
}

/**
 * nodemailer is loaded with the first message, not at start: ~15 MB of RSS that commands and
 * servers which never send mail would otherwise carry (docs/performance.md, backup memory).
 */
export function smtpTransport(url: string, timeoutMs: number): SmtpTransport {
  let made: Promise<Transporter> | null = null;
  return {
    async sendMail(message) {
      made ??= import('nodemailer').then((m) =>
        m.default.createTransport({ url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs }),
      );
      return (await made).sendMail(message);
    },
    close() {
      void made?.then((t) => t.close());
    },
  };
}
