import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  from: string;
  to: string[];
  /** The raw message with quoted-printable soft line breaks undone, so its text can be searched. */
  data: string;
}

export interface SmtpCapture {
  readonly port: number;
  /** `smtp://127.0.0.1:<port>` for SITEWARD_SMTP_URL. */
  readonly url: string;
  /** Every message received, in order. */
  readonly mails: CapturedMail[];
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 port 0 that keeps what it receives (test-only). */
export async function startSmtpCapture(onMail?: (mail: CapturedMail) => void): Promise<SmtpCapture> {
  const mails: CapturedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
      stream.on('end', () => {
        const from = session.envelope.mailFrom;
        const mail = {
          from: from === false ? '' : from.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          data: data.replace(/=\r\n/g, ''),
        };
        mails.push(mail);
        onMail?.(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  return { port, url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}
