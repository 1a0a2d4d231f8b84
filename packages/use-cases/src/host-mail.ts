import { BOOK_HOST_FEE_CENTS, formatLabel, hostTurnoverMail, type HostTurnoverChange } from '@frontdesk/domain';
import {
  enqueueMail,
  firstUpcomingClean,
  lockBooking,
  propertyManageToken,
  setFeeBooking,
  setTurnoverFee,
  type Booking,
  type Db,
  type Pro,
  type Property,
  type SecretHashKeys,
} from '@frontdesk/db';
import { fromPlatformLead, type MailLinks } from './booking-mail';

/**
 * A host-requested property's host (request_turnovers on the book host) is its customer: the
 * calendars' changes to its cleans are mailed to them with their rental page's link, and the
 * arrangement carries one booking fee. The business's own properties (add_property) have no
 * manage link, so they mail nobody and carry no fee.
 */

/** What the autopilot needs to mail a host: the book host's links, and the keys a rental's link is made under. */
export interface HostMail {
  links: MailLinks;
  keys: SecretHashKeys;
}

/** The host's rental page on the book host: the token is the credential. */
export const rentalUrl = (links: Pick<MailLinks, 'bookingUrl'>, token: string) => `${links.bookingUrl}/rental/${token}`;

/** A host-requested property's page on the book host, or null for the business's own property. */
export function rentalLink(host: HostMail, property: Pick<Property, 'id' | 'manage_token_hash'>): string | null {
  const token = propertyManageToken(host.keys, property);
  return token && rentalUrl(host.links, token);
}

/**
 * Tells the host of a change the calendars made to a clean (never one the business made by
 * hand: those do not pass here, and a customer is never messaged when the business cancels),
 * with their rental page's link; never a platform lead's customer.
 */
export async function tellHost(
  trx: Db,
  o: { host: HostMail | undefined; pro: Pro; property: Property; kind: HostTurnoverChange; booking: Booking; from?: Date; now: Date },
): Promise<void> {
  const { property, booking, pro } = o;
  if (!o.host || !property.host_email) return;
  const url = rentalLink(o.host, property);
  if (!url || (await fromPlatformLead(trx, booking))) return;
  const mail = hostTurnoverMail(o.kind, {
    hostName: property.host_name,
    proName: pro.name,
    property: property.name,
    label: formatLabel(booking.starts_at, pro.timezone),
    fromLabel: o.from && formatLabel(o.from, pro.timezone),
    manageUrl: url,
  });
  await enqueueMail(trx, { to: property.host_email, ...mail, secret: true, now: o.now });
}

/**
 * The fee a new turnover of this property carries: a host-requested arrangement's one booking
 * fee rides on its first clean, as a series' rides on its first visit, and passes to the next
 * clean only when the one carrying it was cancelled (a cancelled booking costs nothing).
 */
export async function turnoverFee(trx: Db, property: Property): Promise<number> {
  if (!property.manage_token_hash) return 0;
  if (property.fee_booking_id === null) return BOOK_HOST_FEE_CENTS;
  const carrier = await lockBooking(trx, property.fee_booking_id, property.pro_id);
  return !carrier || carrier.status === 'cancelled' ? BOOK_HOST_FEE_CENTS : 0;
}

/**
 * The arrangement's one fee put back on the clean it belongs on, the earliest booked one by
 * date, as a series' rides on its first visit: a clean booked before the one carrying it (a
 * proposal accepted out of order, a new stay) takes it over, and a carrier cancelled (by the
 * calendars or by anyone) hands it to the next upcoming clean. A carrier that has started keeps
 * it: it is earned, or waived if that clean was a no-show. Run under the business's row after
 * any change to the property's cleans.
 */
export async function placeTurnoverFee(trx: Db, property: Property, now: Date): Promise<void> {
  if (!property.manage_token_hash) return;
  const carrier = property.fee_booking_id ? await lockBooking(trx, property.fee_booking_id, property.pro_id) : undefined;
  if (carrier && carrier.status !== 'cancelled' && carrier.starts_at.getTime() <= now.getTime()) return;
  const first = await firstUpcomingClean(trx, property.id, now);
  if (!first || first.id === carrier?.id) return;
  if (carrier?.status === 'booked') await setTurnoverFee(trx, carrier.id, 0);
  if (first.fee_cents !== BOOK_HOST_FEE_CENTS) await setTurnoverFee(trx, first.id, BOOK_HOST_FEE_CENTS);
  await feeCarriedBy(trx, property, first.id);
}

/** Records the turnover that now carries the fee (the property row the planner holds too). */
export async function feeCarriedBy(trx: Db, property: Property, bookingId: string): Promise<void> {
  await setFeeBooking(trx, property.id, bookingId);
  property.fee_booking_id = bookingId;
}
