/**
 * Who is mailed about a booking. A customer is mailed only about their own booking, move or
 * cancellation on the book host: a booking the business made on its own schedule (a platform
 * lead's included, whose customer must never get a link to book elsewhere) and every change
 * the business makes are for the business to tell its customer (the service does not message
 * a customer when the business cancels). The owner hears of a customer's booking, move or
 * cancellation while the business keeps email_me_customer_changes on.
 */

export interface MailableBooking {
  channel: 'pro' | 'book';
  customer_email: string | null;
}

/** The customer's address for a mail about a change they made, or null: no mail. */
export function customerMailAddress(b: MailableBooking, by: 'pro' | 'customer'): string | null {
  if (by !== 'customer' || b.channel !== 'book') return null;
  return b.customer_email?.trim() || null;
}

/**
 * The customer's address for the new time of a move the business made, when the owner asks
 * to send it, or null: never to a customer who gave no email, nor to a platform lead's (rule
 * 6 of the pro interface: they are reached only inside the platform).
 */
export function businessMoveMailAddress(b: Pick<MailableBooking, 'customer_email'>, o: { platformLead: boolean }): string | null {
  if (o.platformLead) return null;
  return b.customer_email?.trim() || null;
}

export interface NoticeSettings {
  owner_email: string | null;
  email: string | null;
  email_me_customer_changes: boolean;
}

/** Where mail for the owner goes: the address they sign in with, else the business's email; null when neither is set. */
export const ownerAddress = (pro: Pick<NoticeSettings, 'owner_email' | 'email'>): string | null => pro.owner_email?.trim() || pro.email?.trim() || null;

/** Where the owner's notice of a customer's change goes (the sign-in address, else the business email), or null: none. */
export function ownerNoticeAddress(pro: NoticeSettings, by: 'pro' | 'customer'): string | null {
  if (by !== 'customer' || !pro.email_me_customer_changes) return null;
  return ownerAddress(pro);
}
