import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { freePort, type Db } from '@frontdesk/db';
import { createLogger, type Logger } from '@frontdesk/http';
import { createMailTransport, outboxWorker, startTicker } from '@frontdesk/workers';

/** A mail as the SMTP server received it: to whom, and the whole message as sent. */
export interface Received {
  to: string;
  raw: string;
}

/** A real SMTP server on this machine, keeping every mail it receives: what hosts in their own processes deliver to. */
export async function startSmtpInbox(): Promise<{ inbox: Received[]; url: string; stop(): Promise<void> }> {
  const inbox: Received[] = [];
  const port = await freePort();
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString('utf8')));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
  return { inbox, url: `smtp://127.0.0.1:${port}`, stop: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

/**
 * A real SMTP server on this machine that the outbox worker delivers to every 50 ms, and a
 * logger at debug level whose every line is kept: tests read what was mailed and what was
 * logged, as an operator would, never the outbox table's text alone.
 */
export async function startMailSink(db: Db, name: string): Promise<{ inbox: Received[]; logLines: string[]; logger: Logger; stop(): Promise<void> }> {
  const smtp = await startSmtpInbox();
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, next) {
      logLines.push(chunk.toString('utf8'));
      next();
    },
  });
  const logger = createLogger(name, 'debug', sink);
  const transport = createMailTransport({ smtpUrl: smtp.url, from: 'Front Desk <desk@example.com>', printLocally: false }, logger);
  const outbox = startTicker({ ...outboxWorker(db, transport!), everyMs: 50 }, { clock: () => new Date(), logger });
  return {
    inbox: smtp.inbox,
    logLines,
    logger,
    async stop() {
      await outbox.stop();
      await smtp.stop();
    },
  };
}

/** Every mail queued so far has left the outbox (a worker drained it), and the SMTP server has had time to file it. */
export async function outboxDrained(db: Db): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    const { count } = await db
      .selectFrom('outbox')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('sent_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (count === 0) return new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the outbox was not drained');
}
