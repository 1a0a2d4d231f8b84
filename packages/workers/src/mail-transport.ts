import type { MailTransport } from '@frontdesk/db';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

/** How mail leaves, as the host's config says (SMTP_URL, MAIL_FROM, FRONT_DESK_LOCAL_MAIL). */
export interface MailOptions {
  smtpUrl?: string;
  from: string;
  printLocally: boolean;
}

/**
 * SMTP through nodemailer when an SMTP URL is set (e.g. smtp://user:pass@mail.example:587).
 * Without it, the one-command local run (`pnpm start`) prints each mail to its terminal,
 * which is how it shows sign-in codes; a deployed service without one sends nothing (null)
 * and never logs what a mail says.
 */
export function createMailTransport(mail: MailOptions, logger: Pick<Logger, 'warn'>): MailTransport | null {
  if (!mail.smtpUrl) {
    if (!mail.printLocally) {
      logger.warn('SMTP_URL is not set: mail (sign-in codes) stays in the outbox unsent until it is');
      return null;
    }
    return {
      send: (m) => {
        process.stdout.write(`\n--- mail to ${m.to} (no SMTP_URL: printed here, not sent) ---\nSubject: ${m.subject}\n\n${m.text}\n---\n`);
        return Promise.resolve();
      },
    };
  }
  const smtp = nodemailer.createTransport(mail.smtpUrl);
  return {
    send: async (m) => {
      await smtp.sendMail({ from: mail.from, to: m.to, subject: m.subject, text: m.text });
    },
  };
}
