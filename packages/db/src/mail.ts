import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { isDatabaseUnavailable, type Db } from './connect';
import { deliverOutbox, type MailTransport } from './repos/outbox';
import { purgeExpired } from './repos/purge';

/**
 * SMTP through nodemailer when SMTP_URL is set (e.g. smtp://user:pass@mail.example:587);
 * otherwise each mail is written to the log, which is how a local run shows sign-in codes.
 */
export function createMailTransport(smtpUrl: string | undefined, from: string, logger: Logger): MailTransport {
  if (!smtpUrl) {
    return {
      send: (m) => {
        logger.info({ mail: { to: m.to, subject: m.subject, text: m.text } }, 'mail (no SMTP_URL set, so it is logged instead of sent)');
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
export function startOutboxWorker(db: Db, transport: MailTransport, logger: Logger, everyMs = 2000): { stop(): Promise<void> } {
  let running = true;
  let current: Promise<unknown> = Promise.resolve();
  let lastPurge = 0;
  const tick = async () => {
    if (!running) return;
    const purge = Date.now() - lastPurge > PURGE_EVERY_MS;
    if (purge) lastPurge = Date.now();
    current = deliverOutbox(db, transport)
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
  return startOutboxWorker(db, createMailTransport(env.SMTP_URL, env.MAIL_FROM || 'Front Desk <no-reply@localhost>', logger), logger);
}
