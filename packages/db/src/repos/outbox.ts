import { sql, type Kysely } from 'kysely';
import type { Db } from '../connect';
import { ERASED_MAIL_SUBJECT } from '@frontdesk/domain';
import { newId } from '../ids';
import type { OutboxMessage } from '../tables/outbox';
import { cteOf, writeLater } from '../write-batch';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  now: Date;
  /** The mail carries a credential (a sign-in code, a manage link): its subject, body and attachment are blanked once delivered. */
  secret?: boolean;
  /** An iCalendar file (a booking) the mail carries as an attachment. */
  ics?: string;
  /** An HTML part beside the text. */
  html?: string;
  /** Extra headers by name (List-Unsubscribe and List-Unsubscribe-Post on routine customer mail). */
  headers?: Record<string, string>;
}

/**
 * Queues a mail inside the caller's transaction: it is sent only if that commits. Delivery
 * is scheduled on the database's clock (next_attempt_at defaults to now()).
 */
export async function enqueueMail(trx: Db, m: Mail): Promise<string> {
  const id = newId('msg');
  const insert = trx.insertInto('outbox').values({
    id,
    to_address: m.to,
    subject: m.subject,
    text_body: m.text,
    created_at: m.now,
    sent_at: null,
    last_error: null,
    secret: m.secret ?? false,
    ics: m.ics ?? null,
    html_body: m.html ?? null,
    headers: m.headers ? JSON.stringify(m.headers) : null,
  });
  await writeLater(trx, cteOf(insert));
  return id;
}

/** A mail as it leaves: `ics`, when there is one, goes as a calendar attachment. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  ics?: string;
  html?: string;
  headers?: Record<string, string>;
}

/** A queued mail as the transport takes it. */
const outgoing = (m: OutboxMessage): OutgoingMail => ({
  to: m.to_address,
  subject: m.subject,
  text: m.text_body,
  ...(m.ics === null ? {} : { ics: m.ics }),
  ...(m.html_body === null ? {} : { html: m.html_body }),
  ...(m.headers === null ? {} : { headers: m.headers }),
});

export interface MailTransport {
  send(message: OutgoingMail): Promise<void>;
}

const MAX_ATTEMPTS = 8;

/**
 * Sends what is due in the outbox. Rows are claimed with SKIP LOCKED, so any number of
 * replicas deliver side by side and each mail goes out once; a failure is retried later
 * with a growing delay.
 */
export async function deliverOutbox(db: Db, transport: MailTransport, limit = 20): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('outbox')
      .selectAll()
      .where('sent_at', 'is', null)
      .where('attempts', '<', MAX_ATTEMPTS)
      .where('next_attempt_at', '<=', sql<Date>`now()`)
      .orderBy('next_attempt_at')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    for (const m of due) {
      try {
        await transport.send(outgoing(m));
        await trx
          .updateTable('outbox')
          .set({
            sent_at: new Date(),
            attempts: m.attempts + 1,
            last_error: null,
            ...(m.secret ? { subject: ERASED_MAIL_SUBJECT, text_body: '', ics: null, html_body: null } : {}),
          })
          .where('id', '=', m.id)
          .execute();
      } catch (err) {
        const delay = 30 * 2 ** m.attempts;
        await trx
          .updateTable('outbox')
          .set({
            attempts: m.attempts + 1,
            last_error: err instanceof Error ? err.message.slice(0, 500) : 'send failed',
            next_attempt_at: sql<Date>`now() + make_interval(secs => ${delay})`,
          })
          .where('id', '=', m.id)
          .execute();
      }
    }
    return due.length;
  });
}

/** The outbox's mail waiting to be sent (and the age of the oldest, in seconds), and mail given up on: for /metrics. */
export async function outboxBacklog<DB>(db: Kysely<DB>): Promise<{ pending: number; oldest: number; abandoned: number }> {
  const { rows } = await sql<{ pending: number; oldest: number; abandoned: number }>`
    SELECT count(*) FILTER (WHERE attempts < ${MAX_ATTEMPTS})::int AS pending,
           coalesce(extract(epoch FROM now() - min(created_at) FILTER (WHERE attempts < ${MAX_ATTEMPTS})), 0)::float8 AS oldest,
           count(*) FILTER (WHERE attempts >= ${MAX_ATTEMPTS})::int AS abandoned
      FROM outbox WHERE sent_at IS NULL`.execute(db);
  return rows[0]!;
}

/** Whether any mail to this address was queued since then (a re-sent link's limit). */
export async function mailedSince(db: Db, to: string, since: Date): Promise<boolean> {
  const row = await db.selectFrom('outbox').select('id').where('to_address', '=', to).where('created_at', '>=', since).limit(1).executeTakeFirst();
  return row !== undefined;
}
