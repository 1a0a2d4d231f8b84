import type { Generated, Selectable } from 'kysely';

/** The routine customer messages: a reminder before a job, a review request after it. */
export type CustomerMessageKind = 'reminder' | 'review_request';

/** A routine message materialized for a job: one per (booking, kind, offset, start), queued with its mail. */
export interface CustomerMessagesTable {
  id: Generated<string>;
  pro_id: string;
  booking_id: string;
  kind: CustomerMessageKind;
  /** A reminder's hours before the start; 0 for a review request. */
  offset_hours: number;
  /** The job's start the message was for (a moved job is reminded of its new start). */
  starts_at: Date;
  sent_at: Date;
  /** Owed but not sent (a platform lead's customer, an address that unsubscribed). */
  skipped: Generated<boolean>;
}

export type CustomerMessage = Selectable<CustomerMessagesTable>;

/** A customer's address that asked to hear no more reminders or review requests from a business. */
export interface MailUnsubscribesTable {
  pro_id: string;
  email: string;
  created_at: Date;
}

/** The hashed token of a mail's unsubscribe link: which business, which address. */
export interface UnsubscribeLinksTable {
  token_hash: Buffer;
  pro_id: string;
  email: string;
  created_at: Date;
}
