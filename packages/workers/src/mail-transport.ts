import type { MailTransport } from '@frontdesk/db';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

/** How mail leaves, as the host's config says (SMTP_URL, MAIL_FROM, FRONT_DESK_LOCAL_MAIL). */
export interface MailOptions {
  smtpUrl?: string;
  from: string;
  printLocally: boolean;
}

const RULE = '='.repeat(72);

/**
 * A mail as a person reads it in the terminal of `pnpm start`: whole lines of its own between
 * blank lines and rules, never inside a JSON log line, written in one piece so a log line
 * cannot land in the middle of it.
 */
function printMail(m: { to: string; subject: string; text: string }): void {
  process.stdout.write(
    ['', RULE, `Mail to ${m.to} (no SMTP_URL: printed here, not sent)`, `Subject: ${m.subject}`, '', m.text.trimEnd(), RULE, '', ''].join('\n'),
  );
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
    return { send: (m) => Promise.resolve(printMail(m)) };
  }
  const smtp = nodemailer.createTransport(mail.smtpUrl);
  return {
    send: async (m) => {
      await smtp.sendMail({ from: mail.from, to: m.to, subject: m.subject, text: m.text });
    },
  };
}
