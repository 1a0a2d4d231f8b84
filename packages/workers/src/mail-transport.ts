import type { MailTransport, OutgoingMail } from '@frontdesk/db';
import { asOneLine } from '@frontdesk/domain';
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
        process.stdout.write(printedMail(m));
        return Promise.resolve();
      },
    };
  }
  const smtp = nodemailer.createTransport(mail.smtpUrl);
  return {
    send: async (m) => {
      const { to, subject } = headersOf(m);
      await smtp.sendMail({
        from: mail.from,
        to,
        subject,
        text: m.text,
        ...(m.html === undefined ? {} : { html: m.html }),
        ...(m.headers === undefined ? {} : { headers: oneLineHeaders(m.headers) }),
        attachments: m.ics === undefined ? [] : [calendarAttachment(m.ics)],
      });
    },
  };
}

/**
 * A mail's header values, each on one line whatever the outbox holds: a customer's name or a
 * business's in a subject, written before names were refused their line breaks or by any
 * future path, never starts a header of its own (or a printed line) with a CR, LF, NEL or
 * U+2028, nor hides behind a direction override.
 */
const headersOf = (m: OutgoingMail) => ({ to: asOneLine(m.to), subject: asOneLine(m.subject) });

/** Extra headers (List-Unsubscribe), each value on one line like the rest. */
const oneLineHeaders = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, asOneLine(v)]));

/** The file name a booking's calendar attachment gets. */
export const ICS_FILE_NAME = 'cleaning.ics';

/** A booking's iCalendar as a mail attachment that calendars offer to add. */
function calendarAttachment(ics: string) {
  return { filename: ICS_FILE_NAME, content: ics, contentType: 'text/calendar; charset=utf-8; method=PUBLISH' };
}

/**
 * A mail as a person reads it in the terminal of `pnpm start`: whole lines of its own between
 * blank lines and rules, never inside a JSON log line, written in one piece so a log line
 * cannot land in the middle of it; an attachment is named (its text is in the mail's own words).
 */
export function printedMail(m: OutgoingMail): string {
  const attached = m.ics === undefined ? [] : [`[attached: ${ICS_FILE_NAME}]`];
  const { to, subject } = headersOf(m);
  return ['', RULE, `Mail to ${to} (no SMTP_URL: printed here, not sent)`, `Subject: ${subject}`, '', m.text.trimEnd(), ...attached, RULE, '', ''].join('\n');
}
