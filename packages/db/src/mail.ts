import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { isDatabaseUnavailable, type Db } from './connect';
import { deliverOutbox, type MailTransport } from './repos/outbox';
import { purgeExpired } from './repos/purge';

/**
 * SMTP through nodemailer when SMTP_URL is set (e.g. smtp://user:pass@mail.example:587).
 * Without it, the one-command local run (`pnpm start`, which sets FRONT_DESK_LOCAL_MAIL=1)
 * prints each mail to its terminal, which is how it shows sign-in codes; a deployed service
 * without SMTP_URL sends nothing and never logs what a mail says.
 */
export function createMailTransport(smtpUrl: string | undefined, from: string, logger: Logger, printLocally = false): MailTransport | null {
  if (!smtpUrl) {
    if (!printLocally) {
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
  const smtp = nodemailer.createTransport(smtpUrl);
  return {
    send: async (m) => {
      await smtp.sendMail({ from, to: m.to, subject: m.subject, text: m.text });
    },
  };
}

const PURGE_EVERY_MS = 10 * 60_000;

/** Delivers the outbox every `everyMs`, and purges expired rows every ten minutes, until stopped. */
export function startOutboxWorker(db: Db, transport: MailTransport | null, logger: Logger, everyMs = 2000): { stop(): Promise<void> } {
  let running = true;
  let current: Promise<unknown> = Promise.resolve();
  let lastPurge = 0;
  const tick = async () => {
    if (!running) return;
    const purge = Date.now() - lastPurge > PURGE_EVERY_MS;
    if (purge) lastPurge = Date.now();
    current = (transport ? deliverOutbox(db, transport) : Promise.resolve(0))
      .then(() => (purge ? purgeExpired(db, new Date()) : undefined))
      .catch((err) => {
        // The database being away is a state the next tick retries, not a fault of the outbox.
        if (isDatabaseUnavailable(err)) logger.warn({ err: { message: (err as Error).message } }, 'outbox waits for the database');
        else logger.error({ err }, 'outbox delivery or purge failed');
      });
    await current;
    if (running) timer = setTimeout(() => void tick(), everyMs);
  };
  let timer = setTimeout(() => void tick(), 0);
  return {
    stop: async () => {
      running = false;
      clearTimeout(timer);
      await current;
    },
  };
}

/** The outbox worker as the environment configures it: SMTP_URL and MAIL_FROM. */
export function startOutboxWorkerFromEnv(db: Db, logger: Logger, env: NodeJS.ProcessEnv = process.env) {
  const transport = createMailTransport(env.SMTP_URL, env.MAIL_FROM || 'Front Desk <no-reply@localhost>', logger, env.FRONT_DESK_LOCAL_MAIL === '1');
  return startOutboxWorker(db, transport, logger);
}
